//! No module of any crate of the workspace depends, through any chain of dependencies, on a
//! module that depends on it back: at every level the modules of a crate form layers, so each
//! can be read (and changed) knowing only the ones below it.
//!
//! Each crate's source is parsed from its roots (`src/lib.rs`, `src/main.rs`) along its `mod`
//! declarations (test modules left out). A module depends on another when it names it, or an
//! item of it, by a path that starts at `crate`, `super`, `self` or one of its own child
//! modules, in a `use` or in its code (macros' arguments included); a path through a
//! re-export (`pub use`) leads to the module the item comes from. The arrow is drawn between
//! siblings: a submodule's dependencies are its parent's among its parent's siblings. A module
//! that names its own ancestor (the context it is part of: the items of a `mod.rs` or of
//! `lib.rs`) or its own descendant (its parts) draws no arrow. Among the children of every
//! module, the arrows must form no circle. (This is the check that `search.rs` and
//! `mcts/mod.rs`, and `mcts/proof.rs` and `mcts/tree.rs`, of the search crate once failed.)

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

use crate::support::scratch;

/// A module, by its path from the crate root (empty for the root).
type ModulePath = Vec<String>;

/// One parsed module: its children, what its `use` items import, and the paths its code
/// names.
#[derive(Default)]
struct Module {
    file: PathBuf,
    children: BTreeSet<String>,
    /// Name brought into scope (`*` for a glob) and the full path imported.
    imports: Vec<(String, Vec<String>)>,
    /// Paths named in the code (outside `use` items).
    paths: Vec<Vec<String>>,
}

/// The modules of one crate (one root file) and the arrows between them.
struct CrateModules {
    modules: BTreeMap<ModulePath, Module>,
}

/// Whether `attrs` hold `#[cfg(test)]`.
fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg")
            && attr
                .meta
                .require_list()
                .is_ok_and(|list| list.tokens.to_string() == "test")
    })
}

/// The paths a `use` tree imports, with the name each brings into scope.
fn use_paths(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<(String, Vec<String>)>) {
    match tree {
        syn::UseTree::Path(path) => {
            prefix.push(path.ident.to_string());
            use_paths(&path.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(name) if name.ident == "self" => {
            out.push((prefix.last().cloned().unwrap_or_default(), prefix.clone()))
        }
        syn::UseTree::Name(name) => {
            let mut full = prefix.clone();
            full.push(name.ident.to_string());
            out.push((name.ident.to_string(), full));
        }
        syn::UseTree::Rename(rename) => {
            let mut full = prefix.clone();
            full.push(rename.ident.to_string());
            out.push((rename.rename.to_string(), full));
        }
        syn::UseTree::Glob(_) => out.push(("*".into(), prefix.clone())),
        syn::UseTree::Group(group) => {
            for tree in &group.items {
                use_paths(tree, prefix, out);
            }
        }
    }
}

/// Collects the paths named in code: every `syn::Path`, and in macro arguments every run of
/// `ident :: ident ...`.
#[derive(Default)]
struct PathCollector {
    paths: Vec<Vec<String>>,
}

impl PathCollector {
    fn tokens(&mut self, tokens: TokenStream) {
        let mut run: Vec<String> = Vec::new();
        let mut colons = 0;
        for token in tokens {
            match token {
                TokenTree::Ident(ident) if run.is_empty() || colons == 2 => {
                    run.push(ident.to_string());
                    colons = 0;
                }
                TokenTree::Punct(punct) if punct.as_char() == ':' && !run.is_empty() => {
                    colons += 1;
                }
                other => {
                    if run.len() > 1 {
                        self.paths.push(std::mem::take(&mut run));
                    }
                    run.clear();
                    colons = 0;
                    if let TokenTree::Group(group) = other {
                        self.tokens(group.stream());
                    } else if let TokenTree::Ident(ident) = other {
                        run.push(ident.to_string());
                    }
                }
            }
        }
        if run.len() > 1 {
            self.paths.push(run);
        }
    }
}

impl<'ast> Visit<'ast> for PathCollector {
    fn visit_path(&mut self, path: &'ast syn::Path) {
        self.paths
            .push(path.segments.iter().map(|s| s.ident.to_string()).collect());
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.tokens(mac.tokens.clone());
        syn::visit::visit_macro(self, mac);
    }

    // `pub(crate)`, `pub(super)`: not a dependency.
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}

    // Handled as imports; nested items with `#[cfg(test)]` are left out.
    fn visit_item_use(&mut self, _: &'ast syn::ItemUse) {}

    fn visit_item_mod(&mut self, _: &'ast syn::ItemMod) {}

    fn visit_item(&mut self, item: &'ast syn::Item) {
        if !item_attrs(item).is_some_and(is_test_only) {
            syn::visit::visit_item(self, item);
        }
    }

    fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
        let test_only = match item {
            syn::ImplItem::Fn(f) => is_test_only(&f.attrs),
            _ => false,
        };
        if !test_only {
            syn::visit::visit_impl_item(self, item);
        }
    }
}

fn item_attrs(item: &syn::Item) -> Option<&[syn::Attribute]> {
    Some(match item {
        syn::Item::Const(i) => &i.attrs,
        syn::Item::Enum(i) => &i.attrs,
        syn::Item::Fn(i) => &i.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Macro(i) => &i.attrs,
        syn::Item::Mod(i) => &i.attrs,
        syn::Item::Static(i) => &i.attrs,
        syn::Item::Struct(i) => &i.attrs,
        syn::Item::Trait(i) => &i.attrs,
        syn::Item::Type(i) => &i.attrs,
        syn::Item::Union(i) => &i.attrs,
        syn::Item::Use(i) => &i.attrs,
        _ => return None,
    })
}

impl CrateModules {
    /// The modules of the crate whose root file is `root`.
    fn read(root: &Path) -> Result<CrateModules, String> {
        let mut crate_modules = CrateModules {
            modules: BTreeMap::new(),
        };
        let dir = root
            .parent()
            .expect("a root file is in a directory")
            .to_path_buf();
        crate_modules.read_file(Vec::new(), root, &dir)?;
        Ok(crate_modules)
    }

    /// Reads module `path` from `file`, whose child modules' files are in `dir`.
    fn read_file(&mut self, path: ModulePath, file: &Path, dir: &Path) -> Result<(), String> {
        let text = fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let parsed = syn::parse_file(&text).map_err(|e| format!("{}: {e}", file.display()))?;
        self.read_items(path, file, dir, &parsed.items)
    }

    fn read_items(
        &mut self,
        path: ModulePath,
        file: &Path,
        dir: &Path,
        items: &[syn::Item],
    ) -> Result<(), String> {
        let mut module = Module {
            file: file.to_path_buf(),
            ..Module::default()
        };
        let mut children = Vec::new();
        for item in items {
            if item_attrs(item).is_some_and(is_test_only) {
                continue;
            }
            match item {
                syn::Item::Use(item) => use_paths(&item.tree, &mut Vec::new(), &mut module.imports),
                syn::Item::Mod(item) => {
                    module.children.insert(item.ident.to_string());
                    children.push(item);
                }
                item => {
                    let mut collector = PathCollector::default();
                    collector.visit_item(item);
                    module.paths.extend(collector.paths);
                }
            }
        }
        self.modules.insert(path.clone(), module);
        for child in children {
            let name = child.ident.to_string();
            let mut child_path = path.clone();
            child_path.push(name.clone());
            let child_dir = dir.join(&name);
            match &child.content {
                Some((_, items)) => self.read_items(child_path, file, &child_dir, items)?,
                None => {
                    let explicit = child.attrs.iter().find_map(|attr| match &attr.meta {
                        syn::Meta::NameValue(pair) if attr.path().is_ident("path") => {
                            match &pair.value {
                                syn::Expr::Lit(syn::ExprLit {
                                    lit: syn::Lit::Str(text),
                                    ..
                                }) => Some(dir.join(text.value())),
                                _ => None,
                            }
                        }
                        _ => None,
                    });
                    let flat = dir.join(format!("{name}.rs"));
                    let nested = child_dir.join("mod.rs");
                    let child_file = explicit
                        .or_else(|| [flat, nested].into_iter().find(|f| f.is_file()))
                        .ok_or_else(|| format!("{}: no file for `mod {name}`", file.display()))?;
                    self.read_file(child_path, &child_file, &child_dir)?;
                }
            }
        }
        Ok(())
    }

    /// The module that `path`, named in module `from`, leads to; `None` when it leads out of
    /// the crate (another crate, the standard library) or to an item not found.
    fn resolve(&self, from: &ModulePath, path: &[String], depth: usize) -> Option<ModulePath> {
        let (first, rest) = path.split_first()?;
        let mut base = match first.as_str() {
            "crate" => Vec::new(),
            "self" => from.clone(),
            "super" => from[..from.len().checked_sub(1)?].to_vec(),
            child if self.modules[from].children.contains(child) => {
                let mut base = from.clone();
                base.push(child.to_string());
                base
            }
            _ => return None,
        };
        let mut rest = rest;
        while let Some((segment, tail)) = rest.split_first() {
            if segment == "super" {
                base.pop()?;
            } else if self.modules.get(&base)?.children.contains(segment) {
                base.push(segment.clone());
            } else {
                // An item of `base`, or one it imports (a re-export): then the item's module.
                if depth < 8 {
                    let imported = self.modules[&base]
                        .imports
                        .iter()
                        .find(|(name, _)| name == segment);
                    if let Some((_, full)) = imported {
                        if let Some(target) = self.resolve(&base, full, depth + 1) {
                            return Some(target);
                        }
                    }
                }
                return Some(base);
            }
            rest = tail;
        }
        Some(base)
    }

    /// The arrows between sibling modules, each with a witness (a module and the path it
    /// names): a module that names another, or an item of it, makes its ancestor that is a
    /// sibling of the other's ancestor (below their nearest common one) depend on that one.
    /// A module naming its own ancestors (its context) or descendants (its parts) makes no
    /// arrow.
    fn arrows(&self) -> BTreeMap<ModulePath, BTreeMap<ModulePath, String>> {
        let mut arrows: BTreeMap<ModulePath, BTreeMap<ModulePath, String>> = self
            .modules
            .keys()
            .map(|path| (path.clone(), BTreeMap::new()))
            .collect();
        for (path, module) in &self.modules {
            let named = module
                .imports
                .iter()
                .map(|(_, full)| full)
                .chain(&module.paths);
            for full in named {
                let Some(target) = self.resolve(path, full, 0) else {
                    continue;
                };
                let common = path.iter().zip(&target).take_while(|(a, b)| a == b).count();
                if common == path.len() || common == target.len() {
                    continue;
                }
                let witness = format!("{} names {}", self.name(path), full.join("::"));
                arrows
                    .entry(path[..=common].to_vec())
                    .or_default()
                    .entry(target[..=common].to_vec())
                    .or_insert(witness);
            }
        }
        arrows
    }

    /// Every circle of arrows, each as the modules along it (the first again at the end),
    /// with the witness of each arrow.
    fn cycles(&self) -> Vec<(Vec<ModulePath>, Vec<String>)> {
        let arrows = self.arrows();
        let mut found = Vec::new();
        let mut in_a_cycle: BTreeSet<ModulePath> = BTreeSet::new();
        for start in arrows.keys() {
            if in_a_cycle.contains(start) {
                continue;
            }
            // The shortest way from `start` back to itself, breadth first.
            let mut previous: BTreeMap<&ModulePath, &ModulePath> = BTreeMap::new();
            let mut queue = std::collections::VecDeque::from([start]);
            let mut back = None;
            while let Some(node) = queue.pop_front() {
                for next in arrows[node].keys() {
                    if next == start {
                        back = Some(node);
                        break;
                    }
                    if !previous.contains_key(next) && arrows.contains_key(next) {
                        previous.insert(next, node);
                        queue.push_back(next);
                    }
                }
                if back.is_some() {
                    break;
                }
            }
            if let Some(mut node) = back {
                let mut cycle = vec![start.clone()];
                while node != start {
                    cycle.push(node.clone());
                    node = previous[node];
                }
                cycle[1..].reverse();
                cycle.push(start.clone());
                in_a_cycle.extend(cycle.iter().cloned());
                let witnesses = cycle
                    .windows(2)
                    .map(|pair| arrows[&pair[0]][&pair[1]].clone())
                    .collect();
                found.push((cycle, witnesses));
            }
        }
        found
    }

    /// `path` as the file that holds it says it.
    fn name(&self, path: &ModulePath) -> String {
        match path.is_empty() {
            true => format!("crate ({})", self.modules[path].file.display()),
            false => path.join("::"),
        }
    }
}

/// The circles of the crates whose root files are `roots`, one line each.
fn circles(roots: &[PathBuf]) -> Vec<String> {
    let mut lines = Vec::new();
    for root in roots {
        let modules = CrateModules::read(root).unwrap_or_else(|e| panic!("{e}"));
        for (cycle, witnesses) in modules.cycles() {
            let names: Vec<String> = cycle.iter().map(|m| modules.name(m)).collect();
            lines.push(format!(
                "{}: {} ({})",
                root.display(),
                names.join(" -> "),
                witnesses.join("; ")
            ));
        }
    }
    lines
}

/// The root files of every crate of the workspace.
fn workspace_roots() -> Vec<PathBuf> {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut roots: Vec<PathBuf> = fs::read_dir(&crates)
        .expect("the crates directory")
        .flat_map(|entry| {
            let src = entry.expect("a crate directory").path().join("src");
            ["lib.rs", "main.rs"].map(|root| src.join(root))
        })
        .filter(|root| root.is_file())
        .collect();
    roots.sort();
    roots
}

#[test]
fn no_crate_has_a_module_cycle() {
    let roots = workspace_roots();
    assert!(roots.len() >= 10, "{roots:?}");
    let circles = circles(&roots);
    assert!(
        circles.is_empty(),
        "module cycles (move the shared items to a module both can import):\n{}",
        circles.join("\n")
    );
}

/// The check finds the circles it must: through `use crate::`, `super::`, a re-export of the
/// root, a path in the code or in a macro's arguments alone, from a submodule (the arrow is
/// its ancestor's), and among the submodules of a module; and none where a module names its
/// parent, or only a test module closes the circle.
#[test]
fn the_cycle_check_finds_circles_through_every_kind_of_path() {
    let dir = scratch("module-cycles", "circles");
    let src = dir.join("src");
    fs::create_dir_all(src.join("tree")).unwrap();
    fs::create_dir_all(src.join("e")).unwrap();
    let files = [
        (
            "lib.rs",
            "mod a;\nmod b;\nmod c;\nmod d;\nmod e;\nmod f;\nmod g;\nmod h;\nmod tree;\n\
             pub use b::Thing;\n",
        ),
        ("a.rs", "use crate::Thing;\npub struct Other;\n"),
        ("b.rs", "pub struct Thing(crate::a::Other);\n"),
        (
            "c.rs",
            "pub fn f() -> usize { std::mem::size_of::<super::d::D>() }\n",
        ),
        (
            "d.rs",
            "pub struct D;\nfn g() { let _ = format!(\"{}\", crate::c::f()); }\n",
        ),
        ("e.rs", "mod inner;\n"),
        ("e/inner.rs", "pub fn h() { crate::f::k() }\n"),
        (
            "f.rs",
            "pub fn k() {}\npub fn m() { crate::e::inner::h() }\n",
        ),
        ("g.rs", "pub struct G(crate::h::H);\n"),
        (
            "h.rs",
            "pub(crate) struct H;\n#[cfg(test)]\nmod tests { use crate::g::G; }\n",
        ),
        (
            "tree/mod.rs",
            "mod leaf;\nmod twig;\npub struct Root(leaf::Leaf);\n",
        ),
        (
            "tree/leaf.rs",
            "pub struct Leaf(pub super::twig::Twig);\n\
             pub fn root() -> Option<super::Root> { None }\n",
        ),
        (
            "tree/twig.rs",
            "pub struct Twig;\npub fn leaf() -> Option<super::leaf::Leaf> { None }\n",
        ),
    ];
    for (name, text) in files {
        fs::write(src.join(name), text).unwrap();
    }
    let found = circles(&[src.join("lib.rs")]);
    let circles: Vec<&str> = found
        .iter()
        .map(|line| line.split_once(": ").unwrap().1.split(" (").next().unwrap())
        .collect();
    assert_eq!(
        circles,
        [
            "a -> b -> a",
            "c -> d -> c",
            "e -> f -> e",
            "tree::leaf -> tree::twig -> tree::leaf"
        ],
        "{found:?}"
    );
}
