/** @file mixed_data.c
 * @brief n floats or doubles of mixed magnitudes (mixed_values()) to a file for --input: data on which a float
 * sum's order shows (step 14's README). Here, not in step14_same_bits/, which a handout may leave out. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data.h"

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
    double *values = malloc(n * sizeof *values);
    if (!values) {
        fprintf(stderr, "%s: out of host memory for %llu values\n", argv[0], n);
        return 2;
    }
    mixed_values(values, n, strtoull(argv[3], NULL, 10));
    FILE *file = fopen(argv[4], "wb");
    int ok = file != NULL;
    for (unsigned long long i = 0; ok && i < n; i++) {
        float single = (float)values[i];
        ok = fwrite(is_double ? (void *)&values[i] : (void *)&single, is_double ? sizeof *values : sizeof single, 1, file) == 1;
    }
    ok = (file == NULL || fclose(file) == 0) && ok;
    free(values);
    if (!ok)
        fprintf(stderr, "%s: cannot write %s: %s\n", argv[0], argv[4], strerror(errno));
    return ok ? 0 : 2;
}
