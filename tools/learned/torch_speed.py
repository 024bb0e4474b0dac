#!/usr/bin/python3
"""PyTorch's training speed on Holden's default networks (tools/learned/README.md).

The networks of maniDefaultLearnedTrainerOptions (compressor 3 x 512 ELU to
the latent values, decompressor 1 x 512, stepper 2 x 512 over a window of
20, projector 4 x 512; rectifiers elsewhere; batch 32, Compressor and
Decompressor on windows of 2) in torch.float32, the losses of
docs/learned-training.md (as torch_reference.py writes them), autograd and
torch.optim.AdamW(amsgrad=True): iterations per second of each stage at the
thread counts asked, on data of the dimensions given (`maul bench learned`
prints its database's: features, outputs, latent values, frames, a
Projector's passing frames). The values are seeded noise: the speed of a
dense network does not depend on them. PyTorch uses its own threads, BLAS
and FMA. Needs Debian's python3-torch (run with /usr/bin/python3):

  /usr/bin/python3 tools/learned/torch_speed.py --features 5 --outputs 117 \
      --frames 400 --passing 200 --threads 1 2
Prints one line a stage and thread count:
  torch threads T STAGE ITS it/s
"""

import argparse
import sys
import time

import torch

from torch_reference import character_space, compressor_input


class Net(torch.nn.Module):
    def __init__(self, n_in, width, hidden, n_out, elu):
        super().__init__()
        sizes = [n_in] + [width] * hidden + [n_out]
        self.layers = torch.nn.ModuleList(torch.nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:]))
        self.elu = elu

    def forward(self, a):
        for k, lin in enumerate(self.layers):
            a = lin(a)
            if k + 1 < len(self.layers):
                a = torch.nn.functional.elu(a) if self.elu else torch.relu(a)
        return a


def mean_abs(a):
    return torch.mean(torch.abs(a))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--features", type=int, required=True)
    ap.add_argument("--outputs", type=int, required=True, help="the Decompressor's outputs (the Compressor's inputs)")
    ap.add_argument("--bones", type=int, default=0, help="bones (the position terms' columns: 9 a bone); 0: outputs // 9")
    ap.add_argument("--parents", type=int, nargs="+", default=None,
                    help="the skeleton's parents (-1 a root) for the character-space terms; default a chain")
    ap.add_argument("--latent", type=int, default=32)
    ap.add_argument("--frames", type=int, default=400)
    ap.add_argument("--passing", type=int, default=0, help="a Projector's passing frames (0: every frame)")
    ap.add_argument("--width", type=int, default=512)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--iterations", type=int, nargs=3, default=[20, 10, 10],
                    help="timed iterations of stage 1, the Stepper and a Projector (after one untimed)")
    args = ap.parse_args()

    torch.manual_seed(1234)
    torch.set_default_dtype(torch.float32)
    F, L, OUT, N, B, Wd = args.features, args.latent, args.outputs, args.frames, args.batch, args.width
    ST = F + L
    NB = args.bones or OUT // 9
    passing = args.passing or N
    dt = 1.0 / 30.0
    x = torch.randn(N, F)
    y = torch.randn(N, OUT)
    z = torch.randn(N, L)
    cols = torch.arange(9 * NB)
    pos, txy = cols[cols % 9 < 3], cols[cols % 9 >= 3]
    rest = torch.arange(9 * NB, OUT)
    parents = args.parents or [b - 1 for b in range(NB)]
    cin = compressor_input(y, parents)  # the targets' character space once, as the trainer's creation
    CIN = cin.shape[1]

    def stage1(nets):
        comp, decomp = nets
        W = 2
        starts = torch.randint(0, N - W, (B,))
        idx = starts[:, None] + torch.arange(W)[None, :]
        Yg, Xg = y[idx], x[idx]
        Z = comp(cin[idx])
        Yt = decomp(torch.cat([Xg, Z], dim=-1))
        loss = 75.0 * mean_abs(Yg[..., pos] - Yt[..., pos]) + 10.0 * mean_abs(Yg[..., txy] - Yt[..., txy])
        loss = loss + 2.0 * mean_abs(Yg[..., rest] - Yt[..., rest])
        dYg = (Yg[:, 1:] - Yg[:, :-1]) / dt
        dYt = (Yt[:, 1:] - Yt[:, :-1]) / dt
        loss = loss + 10.0 * mean_abs(dYg[..., pos] - dYt[..., pos]) + 1.75 * mean_abs(dYg[..., txy] - dYt[..., txy])
        dZ = (Z[:, 1:] - Z[:, :-1]) / dt
        loss = loss + 0.1 * mean_abs(Z) + 0.1 * torch.mean(Z * Z) + 0.01 * mean_abs(dZ)
        Qg_pos, Qg_rot = character_space(Yg, parents)
        Qt_pos, Qt_rot = character_space(Yt, parents)
        loss = loss + 15.0 * mean_abs(Qg_pos - Qt_pos) + 5.0 * mean_abs(Qg_rot - Qt_rot)
        loss = loss + 2.0 * mean_abs((Qg_pos[:, 1:] - Qg_pos[:, :-1]) / dt - (Qt_pos[:, 1:] - Qt_pos[:, :-1]) / dt)
        return loss + 0.75 * mean_abs((Qg_rot[:, 1:] - Qg_rot[:, :-1]) / dt - (Qt_rot[:, 1:] - Qt_rot[:, :-1]) / dt)

    def stage2(nets):
        (stepper,) = nets
        W = 20
        starts = torch.randint(0, N - W, (B,))
        idx = starts[:, None] + torch.arange(W)[None, :]
        G = torch.cat([x[idx], z[idx]], dim=-1)
        s = [G[:, 0]]
        for _ in range(1, W):
            s.append(s[-1] + dt * stepper(s[-1]))
        S = torch.stack(s, dim=1)
        dG = (G[:, 1:] - G[:, :-1]) / dt
        dS = (S[:, 1:] - S[:, :-1]) / dt
        return (2.0 * mean_abs(G[..., :F] - S[..., :F]) + 15.0 * mean_abs(G[..., F:] - S[..., F:]) +
                0.2 * mean_abs(dG[..., :F] - dS[..., :F]) + 1.5 * mean_abs(dG[..., F:] - dS[..., F:]))

    xp, zp = x[:passing], z[:passing]

    def stage3(nets):
        (proj,) = nets
        xh = x[torch.randint(0, N, (B,))] + torch.randn(B, F)
        with torch.no_grad():
            best = torch.argmin(torch.cdist(xh, xp), dim=1)
        G = torch.cat([xp[best], zp[best]], dim=-1)
        O = proj(xh)
        dg = torch.sqrt(torch.sum((xh - G[:, :F]) ** 2, dim=-1))
        dtil = torch.sqrt(torch.sum((xh - O[:, :F]) ** 2, dim=-1))
        return mean_abs(G[:, :F] - O[:, :F]) + 9.0 * mean_abs(G[:, F:] - O[:, F:]) + 0.2 * mean_abs(dg - dtil)

    stages = [
        ("compressor+decompressor", lambda: [Net(CIN, Wd, 3, L, True), Net(ST, Wd, 1, OUT, False)], stage1,
         args.iterations[0]),
        ("stepper", lambda: [Net(ST, Wd, 2, ST, False)], stage2, args.iterations[1]),
        ("projector", lambda: [Net(F, Wd, 4, ST, False)], stage3, args.iterations[2]),
    ]
    print("torch %s, float32, batch %d, width %d: features %d, outputs %d, latent %d, frames %d, passing %d" %
          (torch.__version__, B, Wd, F, OUT, L, N, passing))
    for threads in args.threads:
        torch.set_num_threads(threads)
        for name, make, loss_of, iterations in stages:
            nets = make()
            params = [p for n in nets for p in n.parameters()]
            opt = torch.optim.AdamW(params, lr=1e-3, weight_decay=1e-3, amsgrad=True)
            sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.99)

            def one():
                loss = loss_of(nets)
                opt.zero_grad()
                loss.backward()
                opt.step()
                sched.step()

            one()  # the first iteration allocates; time the rest
            start = time.perf_counter()
            for _ in range(iterations):
                one()
            s = time.perf_counter() - start
            print("torch threads %d %-24s %8.2f it/s" % (threads, name, iterations / s), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
