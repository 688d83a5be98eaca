/**
 * @file mixed_data.c
 * @brief Writes n floats or doubles of mixed magnitudes, for --input: data on which the
 * order of a float sum shows in its result (step 14's README, make test).
 *
 *     build/tools/mixed_data float|double N SEED FILE
 *
 * Most values are small, uniform in [0, 1). n/128 times, two places drawn at random get a
 * large value and its negative (magnitude from 2^20 to just under 2^31), which cancel
 * exactly. The places are drawn with replacement, so a later pair can overwrite one value
 * of an earlier one: about 1% of the large values are left without their negative (2,021
 * of 260,103 at n = 2^24+7, seed 1), and those set the exact sum (they add up to -7.28e9
 * there, the small values to 8.3e6: -7.27e9 in all). A partial sum that holds a large
 * value rounds every small value added to it to the large value's last bit. Which small
 * values meet which large ones depends on the order of the additions, so two orders give
 * results that differ in many more bits than on uniform data, where rounding errors stay
 * below the result's own last bit. SplitMix64 from SEED: the same file on every machine.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** SplitMix64: a fixed, portable stream of 64-bit numbers. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int main(int argc, char **argv)
{
    char *end = NULL;
    errno = 0;
    unsigned long long n = argc == 5 ? strtoull(argv[2], &end, 10) : 0;
    int is_double = argc == 5 && strcmp(argv[1], "double") == 0;
    if (argc != 5 || (!is_double && strcmp(argv[1], "float") != 0) || errno || !end || *end || n == 0 ||
        n > ((unsigned long long)1 << 31)) {
        fprintf(stderr, "usage: %s float|double N SEED FILE (N from 1 to 2^31, a whole number)\n", argv[0]);
        return 2;
    }
    uint64_t state = strtoull(argv[3], NULL, 10);
    double *values = malloc(n * sizeof *values);
    if (!values) {
        fprintf(stderr, "%s: out of host memory for %llu values\n", argv[0], n);
        return 2;
    }
    for (unsigned long long i = 0; i < n; i++)
        values[i] = (double)(next_random(&state) >> 11) * 0x1.0p-53;
    for (unsigned long long pair = 0; pair < n / 128; pair++) {
        uint64_t r = next_random(&state);
        unsigned long long plus = next_random(&state) % n, minus = next_random(&state) % n;
        if (plus == minus)
            continue;
        /* 25 significant bits: a float file rounds it, but to nearest, the same for both signs,
           so the pair still cancels exactly in either type */
        double large = ldexp(1.0 + (double)(r >> 40) * 0x1.0p-24, 20 + (int)(r % 11));
        values[plus] = large;
        values[minus] = -large;
    }
    FILE *file = fopen(argv[4], "wb");
    if (!file) {
        fprintf(stderr, "%s: cannot write %s: %s\n", argv[0], argv[4], strerror(errno));
        free(values);
        return 2;
    }
    for (unsigned long long i = 0; i < n; i++) {
        float single = (float)values[i];
        if (is_double ? fwrite(&values[i], sizeof values[i], 1, file) != 1 : fwrite(&single, sizeof single, 1, file) != 1) {
            fprintf(stderr, "%s: cannot write %s: %s\n", argv[0], argv[4], strerror(errno));
            fclose(file);
            free(values);
            return 2;
        }
    }
    free(values);
    if (fclose(file) != 0) {
        fprintf(stderr, "%s: cannot write %s: %s\n", argv[0], argv[4], strerror(errno));
        return 2;
    }
    return 0;
}
