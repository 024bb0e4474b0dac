// ozz-animation 0.16.0's IKTwoBoneJob and IKAimJob beside Maul's ik-twobone and
// ik-aim-1 (docs/performance.md, "IK"). Not built by Bazel; from the project root:
//   O=../shared/peers/ozz
//   g++ -std=c++17 -O3 -DNDEBUG [-mavx2 -mfma] -I$O/include -I$O/src tools/peer/ozz_ik_bench.cc \
//       $O/src/animation/runtime/ik_two_bone_job.cc $O/src/animation/runtime/ik_aim_job.cc -o /tmp/ozz_ik
//   valgrind --tool=callgrind /tmp/ozz_ik two 20000   (or: aim 20000)
//   callgrind_annotate --inclusive=yes callgrind.out.* | grep "Job::Run"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>

#include "ozz/animation/runtime/ik_aim_job.h"
#include "ozz/animation/runtime/ik_two_bone_job.h"
#include "ozz/base/maths/simd_math.h"
#include "ozz/base/maths/simd_quaternion.h"

using namespace ozz::math;

static float Rnd(unsigned* s) {
  *s = *s * 1664525u + 1013904223u;
  return (float)((*s >> 8) & 0xFFFF) / 65535.f * 2.f - 1.f;
}

int main(int argc, char** argv) {
  const int n = argc > 2 ? atoi(argv[2]) : 200000;
  const bool aim = argc > 1 && strcmp(argv[1], "aim") == 0;
  // start, mid, end model matrices: bent chain
  Float4x4 start = Float4x4::Translation(simd_float4::Load(0.1f, 0.2f, 0.3f, 0.f)) *
                   Float4x4::FromAxisAngle(simd_float4::Load(0.f, 0.f, 1.f, 0.f), simd_float4::Load1(0.3f));
  Float4x4 mid = start * Float4x4::Translation(simd_float4::Load(0.f, 1.f, 0.f, 0.f)) *
                 Float4x4::FromAxisAngle(simd_float4::Load(0.f, 0.f, 1.f, 0.f), simd_float4::Load1(0.8f));
  Float4x4 end = mid * Float4x4::Translation(simd_float4::Load(0.f, 0.9f, 0.f, 0.f));
  SimdFloat4 goals[1024];
  unsigned seed = 1;
  for (int i = 0; i < 1024; ++i) {
    float x, y, z, l;
    do {
      x = Rnd(&seed), y = Rnd(&seed), z = Rnd(&seed);
      l = std::sqrt(x * x + y * y + z * z);
    } while (l < .1f || l > 1.f);
    float d = aim ? 1.f + 4.f * (Rnd(&seed) * .5f + .5f) : 1.9f * (0.2f + 0.7f * (Rnd(&seed) * .5f + .5f));
    goals[i] = simd_float4::Load(0.1f + x / l * d, 0.2f + y / l * d, 0.3f + z / l * d, 0.f);
  }
  float sink = 0;
  bool reached = false;
  for (int i = 0; i < n; ++i) {
    SimdQuaternion c0, c1;
    if (aim) {
      ozz::animation::IKAimJob job;
      job.target = goals[i & 1023];
      job.forward = simd_float4::z_axis();
      job.up = simd_float4::y_axis();
      job.pole_vector = simd_float4::y_axis();
      job.joint = &end;
      job.joint_correction = &c0;
      job.reached = &reached;
      if (!job.Run()) return 1;
    } else {
      ozz::animation::IKTwoBoneJob job;
      job.target = goals[i & 1023];
      job.pole_vector = simd_float4::y_axis();
      job.start_joint = &start;
      job.mid_joint = &mid;
      job.end_joint = &end;
      job.start_joint_correction = &c0;
      job.mid_joint_correction = &c1;
      job.reached = &reached;
      if (!job.Run()) return 1;
      sink += GetX(c1.xyzw);
    }
    sink += GetX(c0.xyzw) + reached;
  }
  printf("%g\n", sink);
  return 0;
}
