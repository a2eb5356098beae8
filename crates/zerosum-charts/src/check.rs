//! A small well-formedness check of the SVG this crate writes (a subset of XML: elements,
//! quoted attributes, text with the five named entities and numeric ones; no comments,
//! processing instructions or CDATA). The tests of every crate that writes charts use it.

/// Checks that `text` is one `<svg>` element, well formed: tags balanced and properly nested,
/// names plain, every attribute quoted and unique, `&` only in entities, no `<` in text.
/// The error names the problem and its byte offset.
pub fn check_svg(text: &str) -> Result<(), String> {
    let bytes = text.as_bytes();
    let mut open: Vec<&str> = Vec::new();
    let mut roots = 0;
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] != b'<' {
            let end = text[at..].find('<').map_or(text.len(), |i| at + i);
            check_text(&text[at..end], at)?;
            if open.is_empty() && !text[at..end].trim().is_empty() {
                return Err(format!("text outside the root element at byte {at}"));
            }
            at = end;
            continue;
        }
        let end = text[at..]
            .find('>')
            .map(|i| at + i)
            .ok_or_else(|| format!("tag at byte {at} is not closed"))?;
        let tag = &text[at + 1..end];
        if let Some(name) = tag.strip_prefix('/') {
            match open.pop() {
                Some(top) if top == name.trim_end() => {}
                Some(top) => return Err(format!("</{name}> at byte {at} closes <{top}>")),
                None => return Err(format!("</{name}> at byte {at} closes nothing")),
            }
        } else {
            let (body, empty) = match tag.strip_suffix('/') {
                Some(body) => (body, true),
                None => (tag, false),
            };
            let name = body.split_whitespace().next().unwrap_or("");
            check_name(name, at)?;
            check_attributes(&body[name.len()..], at)?;
            if open.is_empty() {
                roots += 1;
                if name != "svg" || roots > 1 {
                    return Err(format!("the root element must be one <svg>, not <{name}>"));
                }
            }
            if !empty {
                open.push(name);
            }
        }
        at = end + 1;
    }
    match (open.last(), roots) {
        (Some(name), _) => Err(format!("<{name}> is never closed")),
        (None, 0) => Err("no <svg> element".into()),
        (None, _) => Ok(()),
    }
}

fn check_name(name: &str, at: usize) -> Result<(), String> {
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':' | '.');
    if name.is_empty()
        || !name.chars().all(plain)
        || !name.starts_with(|c: char| c.is_ascii_alphabetic())
    {
        return Err(format!("bad name `{name}` at byte {at}"));
    }
    Ok(())
}

fn check_attributes(mut rest: &str, at: usize) -> Result<(), String> {
    let mut seen = Vec::new();
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return Ok(());
        }
        let (name, after) = rest
            .split_once('=')
            .ok_or_else(|| format!("attribute without a value at byte {at}"))?;
        check_name(name, at)?;
        if seen.contains(&name) {
            return Err(format!("attribute {name} repeated at byte {at}"));
        }
        seen.push(name);
        let quote = after
            .chars()
            .next()
            .filter(|&q| q == '"' || q == '\'')
            .ok_or_else(|| format!("attribute {name} not quoted at byte {at}"))?;
        let value_end = after[1..]
            .find(quote)
            .ok_or_else(|| format!("attribute {name} not closed at byte {at}"))?;
        let value = &after[1..1 + value_end];
        if value.contains('<') {
            return Err(format!("`<` in attribute {name} at byte {at}"));
        }
        check_text(value, at)?;
        rest = &after[value_end + 2..];
    }
}

fn check_text(text: &str, at: usize) -> Result<(), String> {
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        let entity = &rest[amp + 1..];
        let end = entity
            .find(';')
            .ok_or_else(|| format!("`&` without `;` near byte {at}"))?;
        let name = &entity[..end];
        let numeric = name
            .strip_prefix('#')
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
        if !numeric && !["amp", "lt", "gt", "quot", "apos"].contains(&name) {
            return Err(format!("unknown entity &{name}; near byte {at}"));
        }
        rest = &entity[end + 1..];
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn well_formed_svg_passes_and_broken_svg_is_named() {
        check_svg(r#"<svg a="1"><g><text x='2'>a &amp; b &#39;</text></g><rect/></svg>"#).unwrap();
        for (broken, problem) in [
            ("<svg><g></svg>", "closes <g>"),
            ("<svg>", "never closed"),
            ("<svg a=1></svg>", "not quoted"),
            ("<svg a=\"1\" a=\"2\"></svg>", "repeated"),
            ("<svg>a & b</svg>", "without"),
            ("<svg>&nbsp;</svg>", "unknown entity"),
            ("<svg></svg><svg></svg>", "one <svg>"),
            ("", "no <svg>"),
            ("<g></g>", "one <svg>"),
            ("<svg></svg>x", "outside"),
        ] {
            let error = check_svg(broken).unwrap_err();
            assert!(error.contains(problem), "{broken}: {error}");
        }
    }
}
