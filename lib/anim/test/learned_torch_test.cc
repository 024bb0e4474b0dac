// learnedtrain.h against PyTorch: the trainer of maniFixtureMakeTorchTrainRig
// (seed 1) trained through every stage, each iteration's loss against the
// loss PyTorch gave on the same batch, from the same initial weights, in
// binary64 (data/learned-torch/losses.txt, written by
// tools/learned/torch_reference.py; README.md there). No PyTorch is needed
// here: the reference is test data.
//
// Tolerance. Maul computes in binary32, PyTorch in binary64, so the first
// iteration's losses differ by binary32 rounding of a sum of a few thousand
// terms (measured below 1e-6 relative). Training amplifies the difference:
// an L1 term's sign or a rectifier that flips on a last-bit difference
// changes a gradient by a whole weight, and AdamW's m / sqrt(v) turns tiny
// gradient differences into steps of the learning rate; PyTorch in binary32
// drifts from PyTorch in binary64 the same way and by the same amounts (the
// README's table). So each stage has two bounds: its first iterations, before
// the drift shows, within 1e-5 relative (10x the measured worst), and every
// iteration of the stage within a bound 3x the measured drift at its end.
// A stage's start does not carry the drift of the stage before: PyTorch's
// Stepper and Projectors start from Maul's latent values and normalizations.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "lib/anim/test/fixtures/learned_fixtures.h"
#include "maul/anim/learnedtrain.h"

namespace {

const char* kReference = "lib/anim/test/data/learned-torch/losses.txt";

// Per stage (0 Compressor and Decompressor, 1 Stepper, 2 and 3 the
// Projectors): the iterations held to the early bound, the early bound, the
// bound of every iteration.
struct Bound {
  uint32_t early;
  double earlyRel;
  double allRel;
};
const Bound kBounds[4] = {
    {56, 1e-5, 2e-1},   // measured: 1.0e-6 over the first 56 (1.4e-5 at 57), 6.8e-2 over 300 (PyTorch binary32: 7.0e-2)
    {50, 1e-5, 1.2e-2}, // measured: 8.8e-7 over the first 50, 4.1e-3 over 300
    {100, 2e-5, 5e-5},  // measured: 2.4e-6 over the first 100, 1.6e-5 over 150 (PyTorch binary32: 1.6e-5)
    {150, 2e-5, 2e-5},  // measured: 6.5e-6 over 150
};

struct Reference {
  std::vector<std::vector<double>> loss;  // per stage, per iteration
  bool ok = false;
};

Reference ReadReference() {
  Reference r;
  std::ifstream in(kReference);
  if (!in) return r;
  std::string line;
  r.loss.resize(4);
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream s(line);
    uint32_t stage = 0, it = 0;
    double v = 0;
    if (!(s >> stage >> it >> v) || stage >= 4 || it != r.loss[stage].size()) return Reference();
    r.loss[stage].push_back(v);
  }
  r.ok = true;
  return r;
}

// Maul's loss of every iteration, per stage, of the rig with `edit` applied
// to its options: every stage, or the first `limit` iterations.
template <typename Edit>
std::vector<std::vector<double>> TrainMaul(Edit edit, uint64_t limit = UINT64_MAX) {
  std::vector<std::vector<double>> loss(4);
  maniFixtureTrainRig rig;
  if (maniFixtureMakeTorchTrainRig(&rig, 1) != 0) return loss;
  edit(rig.source.options);
  maniLearnedTrainerDef def = maniDefaultLearnedTrainerDef();
  maniLearnedTrainer* t = nullptr;
  if (maniCreateLearnedTrainer(&def, &rig.source, &t).result == mani_success) {
    uint32_t stage = 0;  // 0, 1, then 2 + the Projector
    for (uint64_t done = 0; done < limit; ++done) {
      maniLearnedTrainerReport rep;
      if (maniLearnedTrainer_Train(t, 1, &rep) != mani_success || rep.iterations != 1) break;
      loss[stage].push_back(rep.lastLoss);
      if (rep.stage == 3) break;
      stage = rep.stage < 2 ? rep.stage : 2 + rep.projector;
    }
  }
  maniDestroyLearnedTrainer(t);
  maniFixtureFreeTrainRig(&rig);
  return loss;
}

struct Agreement {
  double early[4] = {0, 0, 0, 0};
  double all[4] = {0, 0, 0, 0};
  bool sameLengths = true;
};

Agreement Compare(const std::vector<std::vector<double>>& maul, const Reference& ref) {
  Agreement a;
  for (uint32_t s = 0; s < 4; ++s) {
    if (maul[s].size() != ref.loss[s].size()) a.sameLengths = false;
    for (size_t i = 0; i < maul[s].size() && i < ref.loss[s].size(); ++i) {
      const double rel = std::fabs(maul[s][i] - ref.loss[s][i]) / std::fabs(ref.loss[s][i]);
      const double r = std::isnan(rel) ? INFINITY : rel;
      if (i < kBounds[s].early && r > a.early[s]) a.early[s] = r;
      if (r > a.all[s]) a.all[s] = r;
    }
  }
  return a;
}

TEST(LearnedTorch, ReferenceHasEveryIteration) {
  const Reference ref = ReadReference();
  ASSERT_TRUE(ref.ok) << kReference;
  EXPECT_EQ(ref.loss[0].size(), MANI_FIXTURE_TORCH_ITERATIONS_1);
  EXPECT_EQ(ref.loss[1].size(), MANI_FIXTURE_TORCH_ITERATIONS_2);
  EXPECT_EQ(ref.loss[2].size(), MANI_FIXTURE_TORCH_ITERATIONS_3);
  EXPECT_EQ(ref.loss[3].size(), MANI_FIXTURE_TORCH_ITERATIONS_3);
}

// Every iteration's loss follows PyTorch's within its stage's bounds.
TEST(LearnedTorch, LossesFollowPyTorch) {
  const Reference ref = ReadReference();
  ASSERT_TRUE(ref.ok) << kReference;
  const Agreement a = Compare(TrainMaul([](maniLearnedTrainerOptions&) {}), ref);
  EXPECT_TRUE(a.sameLengths);
  for (uint32_t s = 0; s < 4; ++s) {
    EXPECT_LE(a.early[s], kBounds[s].earlyRel) << "stage " << s << ", first " << kBounds[s].early << " iterations";
    EXPECT_LE(a.all[s], kBounds[s].allRel) << "stage " << s << ", every iteration";
    std::printf("stage %u: max relative difference %.3g over the first %u iterations, %.3g over all %zu\n", s,
                a.early[s], kBounds[s].early, a.all[s], ref.loss[s].size());
  }
}

// The comparison can fail: options PyTorch did not train with leave the
// first stage's early bound (the optimizer's weight decay, epsilon, second
// moment rate, the schedule's factor), each by more than 5x. (With the
// character-space terms' larger gradients, epsilon 1e-6 moves the first 56
// losses by 3.8e-6 only: within the bound; 1e-5 is the case.) Only those
// iterations are trained (the test also runs under qemu).
TEST(LearnedTorch, OtherOptionsLeaveTheBounds) {
  const Reference ref = ReadReference();
  ASSERT_TRUE(ref.ok) << kReference;
  struct Case {
    const char* name;
    void (*edit)(maniLearnedTrainerOptions&);
  };
  const Case cases[] = {
      {"weight decay 0.002", [](maniLearnedTrainerOptions& o) { o.weightDecay = 0.002f; }},
      {"epsilon 1e-5", [](maniLearnedTrainerOptions& o) { o.epsilon = 1e-5f; }},
      {"beta2 0.99", [](maniLearnedTrainerOptions& o) { o.beta2 = 0.99f; }},
      {"decay rate 0.98", [](maniLearnedTrainerOptions& o) { o.decayRate = 0.98f; }},
  };
  for (const Case& c : cases) {
    const std::vector<std::vector<double>> maul = TrainMaul(c.edit, kBounds[0].early);
    ASSERT_EQ(maul[0].size(), kBounds[0].early) << c.name;
    const Agreement a = Compare(maul, ref);
    EXPECT_GT(a.early[0], 5.0 * kBounds[0].earlyRel) << c.name;
    std::printf("%s: max relative difference %.3g over the first %u iterations\n", c.name, a.early[0],
                kBounds[0].early);
  }
}

}  // namespace
