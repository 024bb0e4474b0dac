/* The positive control of cpu_object_test.sh: built with the AVX2 backend's
 * flags, this program must show VEX-encoded instructions, proving the check
 * would see them in the CPU-check program. */
#include <immintrin.h>
#include <stdio.h>

int main(int argc, char** argv) {
    (void)argv;
    float in[8] = {1, 2, 3, 4, 5, 6, 7, (float)argc}, out[8];
    __m256 v = _mm256_loadu_ps(in);
    _mm256_storeu_ps(out, _mm256_add_ps(v, v));
    printf("%g\n", (double)out[7]);
    return 0;
}
