/* The CPU check: maniGetSimdBackend, maniIsCpuBackendSupported and
 * maniCheckCpu. This file is its own target (//lib/anim:cpu), compiled
 * without the backend's instruction flags, so it runs on any CPU of the
 * architecture; //lib/anim/test:cpu_object_test checks the machine code. */
#include "maul/anim/base.h"

#if defined(MAUL_ANIM_SIMD_AVX2) + defined(MAUL_ANIM_SIMD_NEON) + defined(MAUL_ANIM_SIMD_SCALAR) != 1
#error "exactly one of MAUL_ANIM_SIMD_AVX2, _NEON, _SCALAR must be defined (the MAUL_ANIM_SIMD build option)"
#endif
#if defined(MAUL_ANIM_SIMD_AVX2) && !defined(__x86_64__)
#error "MAUL_ANIM_SIMD=avx2 needs an x86-64 target"
#endif
#if defined(MAUL_ANIM_SIMD_NEON) && !defined(__aarch64__)
#error "MAUL_ANIM_SIMD=neon needs an aarch64 target"
#endif
#if defined(__AVX__)
#error "cpu.c must be compiled without AVX instructions"
#endif

#if defined(MAUL_ANIM_SIMD_AVX2)
#include <cpuid.h>

/* XCR0 through xgetbv, as inline assembly so no -mxsave is needed. */
static uint64_t mani_ReadXcr0(void) {
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

static bool mani_CpuHasAvx2Fma(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
    const unsigned fma = 1u << 12, osxsave = 1u << 27, avx = 1u << 28;
    if ((c & (fma | osxsave | avx)) != (fma | osxsave | avx)) return false;
    /* The OS must save the XMM and YMM state (XCR0 bits 1 and 2). */
    if ((mani_ReadXcr0() & 6u) != 6u) return false;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
    return (b & (1u << 5)) != 0; /* AVX2 */
}
#endif

#if defined(MAUL_ANIM_SIMD_NEON)
#include <sys/auxv.h>
#ifndef AT_HWCAP
#define AT_HWCAP 16
#endif
#define MANI_HWCAP_ASIMD (1ul << 1) /* Linux arm64 HWCAP_ASIMD */
#endif

const char* maniGetSimdBackend(void) {
#if defined(MAUL_ANIM_SIMD_AVX2)
    return "avx2";
#elif defined(MAUL_ANIM_SIMD_NEON)
    return "neon";
#else
    return "scalar";
#endif
}

bool maniIsCpuBackendSupported(void) {
#if defined(MAUL_ANIM_SIMD_AVX2)
    return mani_CpuHasAvx2Fma();
#elif defined(MAUL_ANIM_SIMD_NEON)
    return (getauxval(AT_HWCAP) & MANI_HWCAP_ASIMD) != 0;
#else
    return true;
#endif
}

bool maniCheckCpu(const char** backend) {
    if (backend != NULL) *backend = maniGetSimdBackend();
    return maniIsCpuBackendSupported();
}
