// Times Google's Draco library (Debian's libdraco-dev) decoding each stream
// named on the command line, in process and as `maul bench draco` times
// Maul's decoder (tools/cli/bench.c): N decodes once to warm up, then 5 runs
// of N, each timed with clock_gettime(CLOCK_MONOTONIC) and, apart, 5 runs by
// the thread's CPU clock; each median run's ns per decode.
// tools/draco/bench.sh runs both side by side.
//   google_bench N stream.drc...
// prints per stream: path bytes points ns_per_decode cpu_ns_per_decode
#include <draco/compression/decode.h>
#include <draco/core/decoder_buffer.h>
#include <draco/mesh/mesh.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

double NowNs(clockid_t clock) {
  timespec t;
  clock_gettime(clock, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

// One decode; the point count, or -1 when the library refuses the stream.
long Decode(const std::vector<char>& bytes) {
  draco::DecoderBuffer buffer;
  buffer.Init(bytes.data(), bytes.size());
  draco::Decoder decoder;
  auto decoded = decoder.DecodeMeshFromBuffer(&buffer);
  if (!decoded.ok()) return -1;
  std::unique_ptr<draco::Mesh> mesh = std::move(decoded).value();
  return (long)mesh->num_points();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: google_bench N stream.drc...\n");
    return 2;
  }
  const int n = std::max(1, atoi(argv[1]));
  for (int i = 2; i < argc; ++i) {
    std::ifstream f(argv[i], std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    long points = 0;
    for (int k = 0; k < n; ++k) points = Decode(bytes);
    if (points < 0) {
      fprintf(stderr, "%s: refused\n", argv[i]);
      return 1;
    }
    double median[2];
    const clockid_t clocks[2] = {CLOCK_MONOTONIC, CLOCK_THREAD_CPUTIME_ID};
    for (int c = 0; c < 2; ++c) {
      std::vector<double> runs;
      for (int r = 0; r < 5; ++r) {
        const double t0 = NowNs(clocks[c]);
        for (int k = 0; k < n; ++k) Decode(bytes);
        runs.push_back((NowNs(clocks[c]) - t0) / n);
      }
      std::sort(runs.begin(), runs.end());
      median[c] = runs[2];
    }
    printf("%s %zu %ld %.0f %.0f\n", argv[i], bytes.size(), points, median[0], median[1]);
  }
  return 0;
}
