"""Random playouts, side by side: `python -m zerosum.bench`.

Steps per second of uniformly random play on Connect Four and 11x11 Hex (a game that ends
starts again at once), each run for about `--seconds` of wall time:

  (a) zerosum.VectorEnv, `--batch` games stepped together in Rust, on 1 and 2 threads: each
      step returns every game's observation planes, reward, done flag and legal mask; and the
      same made with `observations=False` (rewards, done flags and legal masks only: the work
      of the loops of (b) and (c), which read no observation);
  (b) one zerosum.Game driven by a Python loop (legal actions, a random choice, play);
  (c) OpenSpiel's pyspiel loop, the same (`pip install open_spiel`);
  (d) pgx on JAX's CPU backend, `--batch` games per jitted step, random legal actions drawn
      in JAX (`pip install pgx "jax[cpu]"`).

For each: steps per second of wall time and per second of processor time (all threads of the
process: the figure to compare per core on a shared machine), and the ratios per processor
second of (a) on one thread to (c), like for like (no observations), and to (d), like for
like (pgx computes its observations at every step). A library that is not installed is reported as such. `--memory` runs the memory check
instead: 10^6 steps of the vector environment and 10^5 of the single-game API, resident memory
before and after.
"""

import os

# numpy's OpenBLAS threads spin on other cores and count in the process's processor time; no
# run here multiplies matrices (set before numpy is first loaded).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import random  # noqa: E402
import resource  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import zerosum  # noqa: E402

GAMES = {
    # zerosum spec: (OpenSpiel game, its parameters; pgx environment id)
    "connect4": ("connect_four", {}, "connect_four"),
    "hex:11": ("hex", {"board_size": 11}, "hex"),
}


class Clock:
    """Wall and processor time since it started."""

    def __init__(self):
        self.wall = time.perf_counter()
        self.cpu = time.process_time()

    def read(self):
        return time.perf_counter() - self.wall, time.process_time() - self.cpu


def measure(run_once, seconds):
    """Calls `run_once()` (which returns the steps it made) until `seconds` of wall time have
    passed; returns steps per wall second and per processor second."""
    run_once()  # warm up
    clock, steps = Clock(), 0
    while True:
        steps += run_once()
        wall, cpu = clock.read()
        if wall >= seconds:
            return steps / wall, steps / max(cpu, 1e-9)


def vector_env(spec, batch, threads, seconds, observations=True):
    env = zerosum.VectorEnv(spec, batch, seed=1, threads=threads, observations=observations)
    env.reset()

    def once():
        for _ in range(10):
            env.step(env.sample_actions())
        return 10 * batch

    return measure(once, seconds)


def single_game(spec, seconds):
    player = zerosum.RandomPlayer(1)
    state = {"game": zerosum.Game(spec)}

    def once():
        for _ in range(1000):
            game = state["game"]
            game.play(player.choose(game))
            if game.is_terminal():
                state["game"] = zerosum.Game(spec)
        return 1000

    return measure(once, seconds)


def openspiel(spec, seconds):
    import pyspiel

    name, parameters, _ = GAMES[spec]
    game = pyspiel.load_game(name, parameters)
    rng = random.Random(1)
    state = {"state": game.new_initial_state()}

    def once():
        for _ in range(1000):
            current = state["state"]
            current.apply_action(rng.choice(current.legal_actions()))
            if current.is_terminal():
                state["state"] = game.new_initial_state()
        return 1000

    return measure(once, seconds)


def pgx_batched(spec, batch, seconds):
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import auto_reset

    env = pgx.make(GAMES[spec][2])
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))

    @jax.jit
    def ten_steps(state, key):
        def body(carry, _):
            state, key = carry
            key, choose, reset = jax.random.split(key, 3)
            logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
            action = jax.random.categorical(choose, logits, axis=-1)
            state = step(state, action, jax.random.split(reset, batch))
            return (state, key), None

        (state, key), _ = jax.lax.scan(body, (state, key), None, length=10)
        return state, key

    carry = {"state": init(jax.random.split(jax.random.PRNGKey(0), batch)), "key": jax.random.PRNGKey(1)}

    def once():
        state, key = ten_steps(carry["state"], carry["key"])
        jax.block_until_ready(state)
        carry["state"], carry["key"] = state, key
        return 10 * batch

    return measure(once, seconds)


def report(label, figures):
    wall, cpu = figures
    print(f"  {label:<44} {wall:>14,.0f} {cpu:>14,.0f}")
    return cpu


def bench(specs, batch, seconds):
    print(f"random playouts: steps per second (batch {batch} for the batched runs)")
    for spec in specs:
        print(f"{spec}:{'wall':>49} {'per cpu-second':>14}")
        per_cpu = {}
        per_cpu["a1"] = report("(a) zerosum VectorEnv, 1 thread", vector_env(spec, batch, 1, seconds))
        per_cpu["a2"] = report("(a) zerosum VectorEnv, 2 threads", vector_env(spec, batch, 2, seconds))
        for threads in [1, 2]:
            figures = vector_env(spec, batch, threads, seconds, observations=False)
            label = f"(a) ... no observations, {threads} thread{'s' if threads > 1 else ''}"
            per_cpu[f"a{threads}-bare"] = report(label, figures)
        per_cpu["b"] = report("(b) zerosum Game, Python loop", single_game(spec, seconds))
        for key, label, run in [
            ("c", "(c) OpenSpiel pyspiel, Python loop", lambda: openspiel(spec, seconds)),
            ("d", f"(d) pgx, JAX CPU, batch {batch}", lambda: pgx_batched(spec, batch, seconds)),
        ]:
            try:
                per_cpu[key] = report(label, run())
            except ImportError as missing:
                print(f"  {label:<44} not installed ({missing.name})")
        for ours, key, against in [
            ("a1-bare", "c", "(c) OpenSpiel's loop (neither observes)"),
            ("a1", "c", "(c) OpenSpiel's loop, ours observing"),
            ("a1", "d", "(d) pgx (both observe)"),
        ]:
            if key in per_cpu:
                ratio = per_cpu[ours] / per_cpu[key]
                print(f"  (a) 1 thread / {against}, per cpu-second: {ratio:.1f}x")


def resident_mb():
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * resource.getpagesize() / 2**20


def memory():
    """10^6 vector environment steps and 10^5 single-game steps; resident memory after a
    warm-up and at the end."""
    env = zerosum.VectorEnv("connect4", 1000, seed=1, threads=2)
    env.reset()
    for _ in range(100):
        env.step(env.sample_actions())
    before = resident_mb()
    for _ in range(1000):
        observations, rewards, dones, masks = env.step(env.sample_actions())
    after = resident_mb()
    print(f"VectorEnv, 10^6 steps: {before:.1f} MB after the warm-up, {after:.1f} MB at the end")
    game, player = zerosum.Game("hex:11"), zerosum.RandomPlayer(1)
    before_single = resident_mb()
    for _ in range(100_000):
        game.observation()
        game.legal_mask()
        game.play(player.choose(game))
        if game.is_terminal():
            game = zerosum.Game("hex:11")
    after_single = resident_mb()
    print(f"Game, 10^5 steps: {before_single:.1f} MB before, {after_single:.1f} MB after")
    return before, after, before_single, after_single


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m zerosum.bench", description=__doc__.split("\n")[0])
    parser.add_argument("--games", default="connect4,hex:11", help="specs, comma-separated")
    parser.add_argument("--batch", type=int, default=1024, help="games stepped together")
    parser.add_argument("--seconds", type=float, default=3.0, help="wall time of each run")
    parser.add_argument("--memory", action="store_true", help="the memory check instead")
    args = parser.parse_args(argv)
    if args.memory:
        memory()
        return 0
    specs = [spec for spec in args.games.split(",") if spec]
    unknown = [spec for spec in specs if spec not in GAMES]
    if unknown:
        print(f"no OpenSpiel and pgx counterparts known for {', '.join(unknown)}", file=sys.stderr)
        return 2
    bench(specs, args.batch, args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
