// tools/tween-bench/engines.mjs: the JavaScript tween engines' cost per item
// per frame, driven frame by frame (16.67 ms of simulated time apart) in node,
// on the workloads of `maul bench tween-update` (tools/cli/bench.c):
//   transitions-N: N plain objects, each with one tween of CSS's ease
//     (cubic-bezier(0.25, 0.1, 0.25, 1)) lasting 10^6 s (none ends in the run);
//   players-N: N / 4 timelines of four tweens repeating forever (durations
//     1, 1.25, 1.5 and 1.75 s, CSS's ease), each tween moving one object of its
//     own, the timeline's time scale 0.875, 1.375, 1.875 or 2.375 (the rates
//     the bench's players get); players-linear-N: the same, linear easing.
// GSAP runs real timelines (gsap.timeline with timeScale) and is updated
// through gsap.updateRoot. The engines without timelines of repeating
// children with a time scale (anime.js, tween.js, motion) run the four
// tweens of a "timeline" as four animations at its rate (tween.js: the
// duration divided by the rate): the same per-item work, no timeline.
// Usage: node engines.mjs NODE_MODULES_DIR [ENGINE ...]; prints one line a case:
//   engine case frames ns-per-frame ns-per-item
// Times are the median of 5 timed runs after a warm-up run, as maul bench does.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const modules = process.argv[2];
const wanted = process.argv.slice(3);
const require = createRequire(path.join(modules, 'noop.js'));
const FRAME_MS = 1000 / 60;
const SIZES = [[1000, 500], [10000, 50], [100000, 5]];
const RUNS = 5;

// A simulated clock for the engines that read the time themselves (anime.js
// reads Date.now, motion performance.now and requestAnimationFrame): set
// before they load, so they capture these.
let simulatedMs = 0;
// MAUL_BENCH_CPU=1 (run.sh sets it): the process's CPU time in ms, as maul
// bench's thread CPU time, so that a loaded machine dilutes neither side.
const wallNow = performance.now.bind(performance);
const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const realNow = process.env.MAUL_BENCH_CPU === '1' ? cpuNow : wallNow;
const rafCallbacks = [];

function median(values) {
  const v = [...values].sort((a, b) => a - b);
  return v[v.length >> 1];
}

// Runs frames of one engine: step(timeMs) advances it to timeMs.
function measure(step, frames, items) {
  const runs = [];
  for (let r = 0; r <= RUNS; ++r) {
    const t0 = realNow();
    for (let f = 0; f < frames; ++f) {
      simulatedMs += FRAME_MS;
      step(simulatedMs);
    }
    const t1 = realNow();
    if (r > 0) runs.push(((t1 - t0) * 1e6) / frames);
  }
  const perFrame = median(runs);
  return [perFrame, perFrame / items];
}

const rateOf = (p) => 0.5 + ((4 * p + 3) & 15) * 0.125; // bench.c: rate of the player whose last target is 4p+3
const CSS_EASE = [0.25, 0.1, 0.25, 1];

// One line a case; "still" after it when the case's first object never left
// 0 (the engine did not run the work it was timed on).
function report(engine, name, frames, result, probe) {
  const moved = probe && probe.x !== 0 ? '' : ' still';
  console.log(`${engine} ${name} ${frames} ${result[0].toFixed(0)} ${result[1].toFixed(3)}${moved}`);
}

async function runGsap() {
  const { gsap } = require('gsap');
  const { CustomEase } = require('gsap/CustomEase');
  gsap.registerPlugin(CustomEase);
  CustomEase.create('cssEase', CSS_EASE.join(','));
  gsap.ticker.remove(gsap.updateRoot);
  gsap.ticker.sleep();
  gsap.ticker.lagSmoothing(0);
  for (const [n, frames] of SIZES) {
    for (const kind of ['transitions', 'players', 'players-linear']) {
      const made = [];
      let probe = null;
      const base = simulatedMs / 1000;
      gsap.updateRoot(base);
      if (kind === 'transitions') {
        for (let i = 0; i < n; ++i) {
          const o = { x: 0 };
          probe = probe || o;
          made.push(gsap.to(o, { x: 1 + (i & 7), duration: 1e6, ease: 'cssEase' }));
        }
      } else {
        const ease = kind === 'players' ? 'cssEase' : 'none';
        for (let p = 0; p < n / 4; ++p) {
          const tl = gsap.timeline();
          for (let k = 0; k < 4; ++k) {
            const o = { x: 0 };
            probe = probe || o;
            tl.to(o, { x: 1 + k, duration: 1 + 0.25 * k, repeat: -1, ease }, 0);
          }
          tl.timeScale(rateOf(p));
          made.push(tl);
        }
      }
      gsap.ticker.sleep(); // adding woke the ticker's own timer: no real-time frames
      report('gsap', `${kind}-${n}`, frames, measure((ms) => gsap.updateRoot(ms / 1000), frames, n), probe);
      for (const m of made) m.kill();
    }
  }
}

async function runTweenJs() {
  const TWEEN = require('@tweenjs/tween.js');
  const ease = (t) => cubicBezier(CSS_EASE, t);
  for (const [n, frames] of SIZES) {
    for (const kind of ['transitions', 'players', 'players-linear']) {
      const group = new TWEEN.Group();
      let probe = null;
      for (let i = 0; i < n; ++i) {
        const o = { x: 0 };
        probe = probe || o;
        if (kind === 'transitions') {
          new TWEEN.Tween(o, group).to({ x: 1 + (i & 7) }, 1e9).easing(ease).start(simulatedMs);
        } else {
          const k = i & 3;
          new TWEEN.Tween(o, group)
            .to({ x: 1 + k }, (1000 * (1 + 0.25 * k)) / rateOf(i >> 2))
            .repeat(Infinity)
            .easing(kind === 'players' ? ease : TWEEN.Easing.Linear.None)
            .start(simulatedMs);
        }
      }
      report('tween.js', `${kind}-${n}`, frames, measure((ms) => group.update(ms), frames, n), probe);
      group.removeAll();
    }
  }
}

async function runAnime() {
  const anime = await import(pathToFileURL(require.resolve('animejs')).href);
  const { animate, engine, cubicBezier: bezier } = anime;
  engine.useDefaultMainLoop = false;
  engine.pauseOnDocumentHidden = false;
  engine.fps = 1000; // never skip a frame for its own frame rate
  const cssEase = bezier(...CSS_EASE);
  for (const [n, frames] of SIZES) {
    for (const kind of ['transitions', 'players', 'players-linear']) {
      const made = [];
      let probe = null;
      for (let i = 0; i < n; ++i) {
        const o = { x: 0 };
        probe = probe || o;
        if (kind === 'transitions') {
          made.push(animate(o, { x: 1 + (i & 7), duration: 1e9, ease: cssEase }));
        } else {
          const k = i & 3;
          made.push(animate(o, { x: 1 + k, duration: 1000 * (1 + 0.25 * k), loop: true,
                                 playbackRate: rateOf(i >> 2), ease: kind === 'players' ? cssEase : 'linear' }));
        }
      }
      report('anime.js', `${kind}-${n}`, frames, measure(() => engine.update(), frames, n), probe);
      for (const m of made) m.revert();
      engine.update();
    }
  }
}

async function runMotion() {
  const { animate } = await import(pathToFileURL(require.resolve('motion')).href);
  const step = (ms) => {
    const callbacks = rafCallbacks.splice(0);
    for (const cb of callbacks) cb(ms);
  };
  for (const [n, frames] of SIZES) {
    for (const kind of ['transitions', 'players', 'players-linear']) {
      const made = [];
      let probe = null;
      for (let i = 0; i < n; ++i) {
        const o = { x: 0 };
        probe = probe || o;
        if (kind === 'transitions') {
          made.push(animate(o, { x: 1 + (i & 7) }, { duration: 1e6, ease: CSS_EASE }));
        } else {
          const k = i & 3;
          const a = animate(o, { x: 1 + k }, { duration: 1 + 0.25 * k, repeat: Infinity,
                                               ease: kind === 'players' ? CSS_EASE : 'linear' });
          a.speed = rateOf(i >> 2);
          made.push(a);
        }
      }
      step(simulatedMs);
      report('motion', `${kind}-${n}`, frames, measure(step, frames, n), probe);
      for (const m of made) m.stop();
      step(simulatedMs);
    }
  }
}

// CSS's cubic bezier for tween.js (which has none): Newton's iterations on x,
// then y; what the other engines do inside.
function cubicBezier([x1, y1, x2, y2], t) {
  if (t <= 0 || t >= 1) return t;
  const cx = 3 * x1, bx = 3 * (x2 - x1) - cx, ax = 1 - cx - bx;
  const cy = 3 * y1, by = 3 * (y2 - y1) - cy, ay = 1 - cy - by;
  let s = t;
  for (let i = 0; i < 8; ++i) {
    const x = ((ax * s + bx) * s + cx) * s - t;
    if (Math.abs(x) < 1e-7) break;
    const d = (3 * ax * s + 2 * bx) * s + cx;
    if (Math.abs(d) < 1e-6) break;
    s -= x / d;
  }
  return ((ay * s + by) * s + cy) * s;
}

Date.now = () => Math.floor(simulatedMs);
performance.now = () => simulatedMs;
globalThis.requestAnimationFrame = (cb) => rafCallbacks.push(cb);
globalThis.cancelAnimationFrame = () => {};
// motion's animate() tells elements from plain objects by these DOM classes.
for (const name of ['NodeList', 'Element', 'SVGElement', 'HTMLElement']) if (!(name in globalThis)) globalThis[name] = class {};

const engines = { gsap: runGsap, 'tween.js': runTweenJs, 'anime.js': runAnime, motion: runMotion };
for (const [name, run] of Object.entries(engines)) {
  if (wanted.length && !wanted.includes(name)) continue;
  try {
    await run();
  } catch (e) {
    console.log(`${name} failed ${String(e && e.message).replace(/\s+/g, ' ')}`);
  }
}
process.exit(0); // an engine's own timers would keep node running
