#!/usr/bin/python3
"""The PyTorch reference of Maul's learned trainer (tools/learned/README.md).

Loads what torch_export wrote (the normalized data, every network's
normalization, the initial parameters, each iteration's picks and the
Projectors' noisy queries, Maul's loss of each iteration), builds Holden's
networks in torch.float64 on one thread, trains them iteration by iteration
on the exported picks with the losses of docs/learned-training.md, PyTorch's
autograd and torch.optim.AdamW(amsgrad=True) with ExponentialLR as the
trainer applies it (a new optimizer and schedule each stage and each
Projector), and writes PyTorch's loss of every iteration. Prints, per stage,
the largest relative difference of Maul's losses from PyTorch's.

Needs Debian's python3-torch (run with /usr/bin/python3):
  bazel build //tools/learned:torch_export
  bazel-bin/tools/learned/torch_export /tmp/learned-torch
  /usr/bin/python3 tools/learned/torch_reference.py /tmp/learned-torch \
      --out lib/anim/test/data/learned-torch/losses.txt
Nothing here is a hand-written gradient: backward() and the optimizer are
PyTorch's.
"""

import argparse
import datetime
import json
import os
import sys

import numpy as np
import torch

STAGE_NAMES = ["compressor+decompressor", "stepper", "projector 0", "projector 1", "projector 2", "projector 3"]


def load(directory, name, dtype, shape=None):
    a = np.fromfile(os.path.join(directory, name), dtype=dtype)
    if shape is not None:
        a = a.reshape(shape)
    return a


DTYPE = [np.float64]


def f64(a):
    return torch.from_numpy(np.asarray(a, dtype=DTYPE[0]))


class Net:
    """A dense network as the trainer lays it out: layer k's weights (out x in,
    row-major) then its biases; ELU (the Compressor) or rectifier after every
    layer but the last; inputs and outputs normalized by the model's offsets
    and scales."""

    def __init__(self, spec, params, norms):
        self.layers = []
        first = spec["first"]
        for layer in spec["layers"]:
            w0 = first + layer["weights"]
            b0 = first + layer["biases"]
            lin = torch.nn.Linear(layer["in"], layer["out"])
            with torch.no_grad():
                lin.weight.copy_(f64(params[w0:w0 + layer["in"] * layer["out"]].reshape(layer["out"], layer["in"])))
                lin.bias.copy_(f64(params[b0:b0 + layer["out"]]))
            self.layers.append(lin)
        self.elu = spec["elu"] != 0
        self.in_offset, self.in_scale, self.out_offset, self.out_scale = norms

    def parameters(self):
        out = []
        for lin in self.layers:
            out += [lin.weight, lin.bias]
        return out

    def raw(self, a):
        for k, lin in enumerate(self.layers):
            a = lin(a)
            if k + 1 < len(self.layers):
                a = torch.nn.functional.elu(a) if self.elu else torch.relu(a)
        return a

    def __call__(self, v):
        return self.raw((v - self.in_offset) / self.in_scale) * self.out_scale + self.out_offset

    def flat(self):
        vals = []
        for lin in self.layers:
            vals.append(lin.weight.detach().reshape(-1))
            vals.append(lin.bias.detach())
        return torch.cat(vals)


def std_or_1(v):
    """Population std of every value of v (binary64), 1 where it is 0 or at most 1e-6 (docs: a std of 0 taken as 1)."""
    s = torch.sqrt(torch.clamp(torch.mean(v * v, dim=0) - torch.mean(v, dim=0) ** 2, min=0.0))
    return torch.where(s > 1e-6, s, torch.ones_like(s))


def check_norms(man, x, y, z, norms, cin):
    """The normalizations as docs/learned-training.md ("Data") defines them,
    from the exported data in binary64, against the trainer's (binary32)."""
    F, L = man["features"], man["latent"]
    one = lambda n: torch.ones(n)
    zero = lambda n: torch.zeros(n)
    rates = []
    for e in man["entries"]:
        a, n = e["firstFrame"], e["frameCount"]
        s = torch.cat([x[a:a + n], z[a:a + n]], dim=1)
        rates.append((s[1:] - s[:-1]) / man["dt"])
    rates = torch.cat(rates)
    xs = std_or_1(x.reshape(-1, 1))[0]
    zs = std_or_1(z.reshape(-1, 1))[0]
    want = [
        [cin.mean(0), std_or_1(cin), zero(L), one(L)],
        [zero(F + L), one(F + L), y.mean(0), std_or_1(y)],
        [torch.cat([x.mean(0), z.mean(0)]), torch.cat([xs.repeat(F), zs.repeat(L)]), rates.mean(0), std_or_1(rates)],
    ]
    for _ in range(man["projectors"]):
        want.append([x.mean(0), xs.repeat(F), torch.cat([x.mean(0), z.mean(0)]), torch.cat([std_or_1(x), std_or_1(z)])])
    worst = 0.0
    for got, exp in zip(norms, want):
        for g, w in zip(got, exp):
            worst = max(worst, float(torch.max(torch.abs(g - w) / torch.clamp(torch.abs(w), min=1e-3))))
    print("normalizations from the data (docs) against the trainer's: max relative difference %.3g" % worst)
    return worst


def mean_abs(a):
    return torch.mean(torch.abs(a))


def character_space(Y, parents):
    """Every bone's character-space position and rotation matrix (bone 0's
    model space inverted times the bone's; docs/learned-training.md,
    "Losses") from Decompressor outputs Y [..., outputs]: per bone its
    translation and two rotation columns, the columns orthonormalized as
    maniLearnedModel_Decompress does (x = c0 / |c0|, y = c1 less its x part,
    normalized, z = x cross y), parents in index order, scales not applied.
    Returns positions [..., bones, 3] and matrices [..., bones, 3, 3]."""
    pos, rot = [], []
    for b, p in enumerate(parents):
        t = Y[..., 9 * b:9 * b + 3]
        c0 = Y[..., 9 * b + 3:9 * b + 6]
        c1 = Y[..., 9 * b + 6:9 * b + 9]
        x = c0 / torch.linalg.norm(c0, dim=-1, keepdim=True)
        u = c1 - torch.sum(x * c1, dim=-1, keepdim=True) * x
        yv = u / torch.linalg.norm(u, dim=-1, keepdim=True)
        R = torch.stack([x, yv, torch.cross(x, yv, dim=-1)], dim=-1)
        if p < 0:
            pos.append(t)
            rot.append(R)
        else:
            pos.append(torch.matmul(rot[p], t[..., None])[..., 0] + pos[p])
            rot.append(torch.matmul(rot[p], R))
    G_pos = torch.stack(pos, dim=-2)
    G_rot = torch.stack(rot, dim=-3)
    R0T = G_rot[..., 0:1, :, :].transpose(-1, -2)
    Q_pos = torch.matmul(R0T, (G_pos - G_pos[..., 0:1, :])[..., None])[..., 0]
    Q_rot = torch.matmul(R0T, G_rot)
    return Q_pos, Q_rot


def compressor_input(Y, parents):
    """The Compressor's input before its normalization: the targets, then per
    bone but bone 0 its character-space position and first two rotation
    columns (Holden's Qpos and Qtxy)."""
    Q_pos, Q_rot = character_space(Y, parents)
    per_bone = torch.cat([Q_pos[..., 1:, :], Q_rot[..., 1:, :, 0], Q_rot[..., 1:, :, 1]], dim=-1)
    return torch.cat([Y, per_bone.reshape(Y.shape[:-1] + (-1,))], dim=-1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("export", help="directory torch_export wrote")
    ap.add_argument("--out", help="write PyTorch's losses here (the test's reference file)")
    ap.add_argument("--own-latent", action="store_true",
                    help="stages 2 and 3 on PyTorch's own latent values (default: Maul's, exported; the normalizations stay Maul's)")
    ap.add_argument("--nearest", choices=["binary32", "binary64"], default="binary32",
                    help="how a Projector's target frame is found: squared distances as the trainer rounds them "
                         "(default), or in binary64 (near ties may then pick another frame than Maul)")
    ap.add_argument("--dump", help="write iteration, stage, Maul's loss, PyTorch's loss and their relative difference here")
    ap.add_argument("--float32", action="store_true", help="PyTorch in binary32 (to measure rounding drift alone)")
    ap.add_argument("--jitter", type=float, default=0.0,
                    help="scale every initial parameter by (1 + jitter u), u uniform in [-1, 1) (sensitivity to rounding)")
    args = ap.parse_args()

    torch.set_num_threads(1)
    if args.float32:
        DTYPE[0] = np.float32
    torch.set_default_dtype(torch.float32 if args.float32 else torch.float64)
    d = args.export
    man = json.load(open(os.path.join(d, "manifest.json")))
    o = man["options"]
    F, L, ST, OUT = man["features"], man["latent"], man["state"], man["outputs"]
    NB, NS, NT, NE = man["bones"], man["scaled"], man["tracks"], man["events"]
    frames, P = man["frames"], man["projectors"]
    B = o["batchSize"]
    dt = man["dt"]  # the trainer's binary32 1 / rate, as a double

    x = f64(load(d, "x.f32", "<f4", (frames, F)))
    y = f64(load(d, "y.f32", "<f4", (frames, OUT)))
    z_maul = f64(load(d, "z.f32", "<f4", (frames, L)))
    params0 = load(d, "params0.f32", "<f4").astype(np.float64)
    if args.jitter:
        params0 = params0 * (1.0 + args.jitter * np.random.default_rng(1).uniform(-1.0, 1.0, params0.size))
    params1 = load(d, "params1.f32", "<f4").astype(np.float64)
    normv = load(d, "norms.f32", "<f4").astype(np.float64)
    passing = load(d, "passing.u32", "<u4").astype(np.int64)
    picks = load(d, "picks.u32", "<u4").astype(np.int64).reshape(-1, B)
    queries = f64(load(d, "queries.f32", "<f4")).reshape(-1, B, F)
    maul_loss = load(d, "loss.f32", "<f4").astype(np.float64)
    maul_rate = load(d, "rate.f32", "<f4").astype(np.float64)
    stage_of = load(d, "stage.u32", "<u4")

    # Every network's normalization, in network order.
    norms, at = [], 0
    for spec in man["networks"]:
        n_in, n_out = spec["layers"][0]["in"], spec["layers"][-1]["out"]
        parts = []
        for n in (n_in, n_in, n_out, n_out):
            parts.append(f64(normv[at:at + n]))
            at += n
        norms.append(parts)
    assert at == normv.size
    parents = man["parents"]
    cin = compressor_input(y, parents)
    check_norms(man, x, y, z_maul, norms, cin)
    nets = [Net(spec, params0, norms[i]) for i, spec in enumerate(man["networks"])]
    comp, decomp, stepper, projectors = nets[0], nets[1], nets[2], nets[3:]

    # The Decompressor's output groups (docs/learned-training.md, "Data").
    cols = np.arange(9 * NB)
    pos = torch.from_numpy(cols[cols % 9 < 3])
    txy = torch.from_numpy(cols[cols % 9 >= 3])
    at = 9 * NB
    scl = torch.arange(at, at + 3 * NS)
    at += 3 * NS
    rvel = torch.arange(at, at + 3)
    rang = torch.arange(at + 3, at + 6)
    extra = torch.arange(at + 6, OUT)

    def stage1_loss(starts):
        W = o["trainingWindow"]
        idx = torch.from_numpy(starts[:, None] + np.arange(W)[None, :])
        Yg, Xg = y[idx], x[idx]
        Z = comp(cin[idx])
        Yt = decomp(torch.cat([Xg, Z], dim=-1))
        loss = 75.0 * mean_abs(Yg[..., pos] - Yt[..., pos]) + 10.0 * mean_abs(Yg[..., txy] - Yt[..., txy])
        if NS > 0:
            loss = loss + 10.0 * mean_abs(Yg[..., scl] - Yt[..., scl])
        loss = loss + 2.0 * mean_abs(Yg[..., rvel] - Yt[..., rvel]) + 2.0 * mean_abs(Yg[..., rang] - Yt[..., rang])
        if NT + NE > 0:
            loss = loss + 2.0 * mean_abs(Yg[..., extra] - Yt[..., extra])
        dYg = (Yg[:, 1:] - Yg[:, :-1]) / dt
        dYt = (Yt[:, 1:] - Yt[:, :-1]) / dt
        loss = loss + 10.0 * mean_abs(dYg[..., pos] - dYt[..., pos]) + 1.75 * mean_abs(dYg[..., txy] - dYt[..., txy])
        dZ = (Z[:, 1:] - Z[:, :-1]) / dt
        loss = loss + 0.1 * mean_abs(Z) + 0.1 * torch.mean(Z * Z) + 0.01 * mean_abs(dZ)
        # Holden's character-space terms and their velocities over the window.
        Qg_pos, Qg_rot = character_space(Yg, parents)
        Qt_pos, Qt_rot = character_space(Yt, parents)
        loss = loss + 15.0 * mean_abs(Qg_pos - Qt_pos) + 5.0 * mean_abs(Qg_rot - Qt_rot)
        dQg_pos = (Qg_pos[:, 1:] - Qg_pos[:, :-1]) / dt
        dQt_pos = (Qt_pos[:, 1:] - Qt_pos[:, :-1]) / dt
        dQg_rot = (Qg_rot[:, 1:] - Qg_rot[:, :-1]) / dt
        dQt_rot = (Qt_rot[:, 1:] - Qt_rot[:, :-1]) / dt
        loss = loss + 2.0 * mean_abs(dQg_pos - dQt_pos) + 0.75 * mean_abs(dQg_rot - dQt_rot)
        return loss

    state = {"z": z_maul}

    def stage2_loss(starts):
        W = o["stepperWindow"]
        z = state["z"]
        idx = torch.from_numpy(starts[:, None] + np.arange(W)[None, :])
        G = torch.cat([x[idx], z[idx]], dim=-1)
        s = [G[:, 0]]
        for _ in range(1, W):
            s.append(s[-1] + dt * stepper(s[-1]))
        S = torch.stack(s, dim=1)
        dG = (G[:, 1:] - G[:, :-1]) / dt
        dS = (S[:, 1:] - S[:, :-1]) / dt
        return (2.0 * mean_abs(G[..., :F] - S[..., :F]) + 15.0 * mean_abs(G[..., F:] - S[..., F:]) +
                0.2 * mean_abs(dG[..., :F] - dS[..., :F]) + 1.5 * mean_abs(dG[..., F:] - dS[..., F:]))

    x32 = load(d, "x.f32", "<f4", (frames, F))
    nearest_stats = {"queries": 0, "differ": 0, "gap": 0.0}

    def nearest(p, xh):
        """The nearest passing frame of each query. The squared distance is
        measured as the trainer measures it, in binary32 summed in feature
        order (numpy, one rounding per operation), so that the frames of a
        near tie (the database has frames whose features differ in their
        last bits) resolve as in Maul; the first of equal distances wins (the
        lowest frame). Checked against binary64: the frame chosen is nearest
        within 1e-6 relative (counted and reported)."""
        frames_p = passing[man["passingFirst"][p]:man["passingFirst"][p + 1]]
        q32 = xh.numpy().astype(np.float32)
        if args.nearest == "binary32":
            d2 = np.zeros((q32.shape[0], frames_p.size), dtype=np.float32)
            for j in range(F):
                dj = q32[:, None, j] - x32[None, frames_p, j]
                d2 = d2 + dj * dj
            best = frames_p[np.argmin(d2, axis=1)]
        d64 = torch.sum((xh[:, None, :] - x[torch.from_numpy(frames_p)][None, :, :]) ** 2, dim=-1).numpy()
        best64 = frames_p[np.argmin(d64, axis=1)]
        if args.nearest == "binary64":
            best = best64
        pos_best = np.searchsorted(frames_p, best)
        chosen = d64[np.arange(len(best)), pos_best]
        gap = (chosen - d64.min(axis=1)) / np.maximum(d64.min(axis=1), 1e-30)
        nearest_stats["queries"] += len(best)
        nearest_stats["differ"] += int(np.sum(best != best64))
        nearest_stats["gap"] = max(nearest_stats["gap"], float(gap.max()))
        return torch.from_numpy(best.astype(np.int64))

    def stage3_loss(p, xh):
        z = state["z"]
        best = nearest(p, xh)
        G = torch.cat([x[best], z[best]], dim=-1)
        O = projectors[p](xh)
        dg = torch.sqrt(torch.sum((xh - G[:, :F]) ** 2, dim=-1))
        dtil = torch.sqrt(torch.sum((xh - O[:, :F]) ** 2, dim=-1))
        return (1.0 * mean_abs(G[:, :F] - O[:, :F]) + 9.0 * mean_abs(G[:, F:] - O[:, F:]) +
                0.2 * mean_abs(dg - dtil))

    torch_loss = np.zeros(len(maul_loss))
    torch_rate = np.zeros(len(maul_loss))
    it = 0
    q = 0
    plan = [(0, [comp, decomp], o["decompressorIterations"]), (1, [stepper], o["stepperIterations"])]
    plan += [(2 + p, [projectors[p]], o["projectorIterations"]) for p in range(P)]
    notes = []
    for stage, stage_nets, iterations in plan:
        params = []
        for n in stage_nets:
            params += n.parameters()
        opt = torch.optim.AdamW(params, lr=o["learningRate"], betas=(o["beta1"], o["beta2"]), eps=o["epsilon"],
                                weight_decay=o["weightDecay"], amsgrad=True, foreach=False)
        sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=o["decayRate"])
        if stage == 1 and args.own_latent:
            with torch.no_grad():
                state["z"] = comp(cin)
        for i in range(iterations):
            assert stage_of[it] == stage
            torch_rate[it] = opt.param_groups[0]["lr"]
            if stage == 0:
                loss = stage1_loss(picks[it])
            elif stage == 1:
                loss = stage2_loss(picks[it])
            else:
                loss = stage3_loss(stage - 2, queries[q])
                q += 1
            opt.zero_grad()
            loss.backward()
            opt.step()
            if i % o["decayInterval"] == 0:
                sched.step()
            torch_loss[it] = loss.item()
            it += 1
        if stage == 0:
            with torch.no_grad():
                zt = comp(cin)
            notes.append("latent values at stage 1's end: max |Maul - PyTorch| %.3g (max |z| %.3g)" %
                         (float(torch.max(torch.abs(zt - z_maul))), float(torch.max(torch.abs(z_maul)))))
        flat = torch.cat([n.flat() for n in stage_nets])
        lo = man["networks"][nets.index(stage_nets[0])]["first"]
        maul_flat = f64(params1[lo:lo + flat.numel()])
        notes.append("%s parameters after the stage: max |Maul - PyTorch| %.3g (max |p| %.3g)" %
                     (STAGE_NAMES[stage], float(torch.max(torch.abs(flat - maul_flat))),
                      float(torch.max(torch.abs(maul_flat)))))
    assert it == len(maul_loss)

    rel = np.abs(maul_loss - torch_loss) / np.abs(torch_loss)
    print("torch %s, %d iterations" % (torch.__version__, it))
    print("learning rates: max |Maul - PyTorch| / PyTorch %.3g" % float(np.max(np.abs(maul_rate - torch_rate) / torch_rate)))
    notes.append("Projectors' targets: %d of %d queries' nearest frames differ in binary64; the frames taken are nearest "
                 "in binary64 within %.3g relative" % (nearest_stats["differ"], nearest_stats["queries"],
                                                       nearest_stats["gap"]))
    for n in notes:
        print(n)
    summary = []
    for stage in range(2 + P):
        sel = stage_of == stage
        r = rel[sel]
        first = np.where(sel)[0][0]
        k = len(r)
        line = "%-24s iterations %4d: max relative difference %.3g (first tenth %.3g, last tenth %.3g), loss %.5g -> %.5g" % (
            STAGE_NAMES[stage], k, r.max(), r[:max(1, k // 10)].max(), r[-max(1, k // 10):].max(),
            torch_loss[first], torch_loss[first + k - 1])
        print(line)
        summary.append(line)
    if args.dump:
        with open(args.dump, "w") as f:
            for k in range(it):
                f.write("%d %d %.9g %.17g %.3g\n" % (k, stage_of[k], maul_loss[k], torch_loss[k], rel[k]))
    if args.out:
        with open(args.out, "w") as f:
            f.write("# PyTorch's loss of every iteration of the learned trainer's comparison run\n")
            f.write("# (tools/learned/torch_reference.py; README.md beside this file).\n")
            f.write("# torch %s, torch.float64, 1 thread, %s\n" %
                    (torch.__version__, datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC")))
            f.write("# seed %d, options %s\n" % (man["seed"], json.dumps(o, sort_keys=True)))
            for line in summary:
                f.write("# Maul against it: %s\n" % line)
            f.write("# stage iteration loss (stage: 0 Compressor and Decompressor, 1 Stepper, 2 + p Projector p)\n")
            k = 0
            for stage in range(2 + P):
                n = int(np.sum(stage_of == stage))
                for i in range(n):
                    f.write("%d %d %.17g\n" % (stage, i, torch_loss[k]))
                    k += 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
