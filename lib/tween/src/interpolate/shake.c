/* Maul Tween: punch and shake (interpolate.h). */
#include <math.h>

#include "lib/core/detmath.h"
#include "lib/core/rng.h"
#include "lib/tween/src/interpolate/interpolate_internal.h"
#include "maul/tween/interpolate.h"

static bool areSignalParamsValid(double frequency, double duration, double exponent)
{
    return frequency > 0.0 && mtwn_IsFinite(frequency) && duration > 0.0 && mtwn_IsFinite(duration) &&
           exponent > 0.0 && mtwn_IsFinite(exponent) && frequency * duration <= MTWN_MAX_CYCLES;
}

/* (1 - t / duration)^exponent for t in (0, duration). */
static double envelope(double t, double duration, double exponent)
{
    double base = 1.0 - t / duration;
    if (!(base > 0.0)) return 0.0;
    return mcore_pow(base, exponent);
}

mtwnResult mtwnMakePunch(double frequency, double duration, double exponent, mtwnPunch* punchOut)
{
    if (punchOut == NULL || !areSignalParamsValid(frequency, duration, exponent)) return mtwn_errorInvalid;
    punchOut->frequency = frequency;
    punchOut->duration = duration;
    punchOut->exponent = exponent;
    return mtwn_success;
}

mtwnResult mtwnSamplePunch(const mtwnPunch* punch, double seconds, double* factorOut)
{
    double v;
    if (punch == NULL || factorOut == NULL || seconds != seconds ||
        !areSignalParamsValid(punch->frequency, punch->duration, punch->exponent)) {
        return mtwn_errorInvalid;
    }
    if (!(seconds > 0.0) || !(seconds < punch->duration)) {
        *factorOut = 0.0;
        return mtwn_success;
    }
    v = mcore_sin(MTWN_TWO_PI * (punch->frequency * seconds)) * envelope(seconds, punch->duration, punch->exponent);
    *factorOut = v;
    return mtwn_success;
}

mtwnResult mtwnMakeShake(double frequency, double duration, double exponent, uint64_t seed, mtwnShake* shakeOut)
{
    if (shakeOut == NULL || !areSignalParamsValid(frequency, duration, exponent)) return mtwn_errorInvalid;
    shakeOut->frequency = frequency;
    shakeOut->duration = duration;
    shakeOut->exponent = exponent;
    shakeOut->seed = seed;
    return mtwn_success;
}

/* The gradient at lattice point i of a channel: SplitMix64 seeded by the
 * seed, its output xor the channel times an odd constant seeding the next,
 * whose output xor i (two's complement) seeds the last; the top 53 bits of
 * its first output as a double u in [0, 1), the gradient 2 u - 1. */
static double gradient(uint64_t seed, uint32_t channel, int64_t i)
{
    mcore_Rng r;
    uint64_t k;
    mcore_RngSeed(&r, seed);
    k = mcore_RngNext(&r) ^ ((uint64_t)channel * 0xD1B54A32D192ED03ull);
    mcore_RngSeed(&r, k);
    k = mcore_RngNext(&r) ^ (uint64_t)i;
    mcore_RngSeed(&r, k);
    return 2.0 * mcore_RngDouble01(&r) - 1.0;
}

/* Perlin's 1D gradient noise at x, times 2, within -1 to 1. */
static double noise(uint64_t seed, uint32_t channel, double x)
{
    double i0;
    double f;
    double g0;
    double g1;
    double s;
    double n;
    if (!(x < 0x1p53 && x > -0x1p53)) return 0.0;
    i0 = floor(x);
    f = x - i0;
    if (f == 0.0) return 0.0;
    g0 = gradient(seed, channel, (int64_t)i0);
    g1 = gradient(seed, channel, (int64_t)i0 + 1);
    s = f * f * f * (f * (f * 6.0 - 15.0) + 10.0);
    n = g0 * f + s * (g1 * (f - 1.0) - g0 * f);
    n = 2.0 * n;
    if (n > 1.0) n = 1.0;
    if (n < -1.0) n = -1.0;
    return n;
}

static bool isShakeValid(const mtwnShake* s)
{
    return areSignalParamsValid(s->frequency, s->duration, s->exponent);
}

mtwnResult mtwnSampleShake(const mtwnShake* shake, uint32_t channel, double seconds, double* factorOut)
{
    if (shake == NULL || factorOut == NULL || seconds != seconds || !isShakeValid(shake)) return mtwn_errorInvalid;
    if (!(seconds > 0.0) || !(seconds < shake->duration)) {
        *factorOut = 0.0;
        return mtwn_success;
    }
    *factorOut = noise(shake->seed, channel, shake->frequency * seconds) *
                 envelope(seconds, shake->duration, shake->exponent);
    return mtwn_success;
}

mtwnResult mtwnSampleShakeNoise(const mtwnShake* shake, uint32_t channel, double seconds, double* factorOut)
{
    if (shake == NULL || factorOut == NULL || seconds != seconds || !isShakeValid(shake)) return mtwn_errorInvalid;
    *factorOut = noise(shake->seed, channel, shake->frequency * seconds);
    return mtwn_success;
}
