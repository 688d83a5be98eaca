/**
 * @file blocks_flag.h
 * @brief `--blocks B`, for the programs whose grid is a full wave of the GPU: B replaces the
 * wave as the most blocks the grid may have, so that one GPU runs another's grid (step 14:
 * its bits do not depend on it; step 11's finishes: theirs do).
 *
 * A program includes it once, caps its grid with most_blocks and names blocks_flag as its
 * STEP's own_flags: the core knows nothing of grids. SAME_BITS 1 before the include makes
 * --describe say same_bits=1, the claim that make test holds the program to.
 */
#ifndef REDUCE_BLOCKS_FLAG_H
#define REDUCE_BLOCKS_FLAG_H

#include <stdio.h>

#include "step.h"

#ifndef SAME_BITS
#define SAME_BITS 0
#endif
/** Most --blocks may ask for: a grid never gets more blocks than it has work for. */
#define MOST_BLOCKS_FLAG (1 << 20)

/** --blocks B: the most blocks the grid may have (0: not given, a full wave). */
static int most_blocks = 0;

/** Takes --blocks' value (1 to MOST_BLOCKS_FLAG), or NULL: back to the full wave (--same-bits' own grid). */
static int take_blocks(int index, const char *value, char *error, size_t error_size)
{
    (void)index;
    if (!value)
        most_blocks = 0;
    if (!value || parse_int_in(value, 1, MOST_BLOCKS_FLAG, &most_blocks) == 0)
        return 0;
    snprintf(error, error_size, "--blocks %s: give the most blocks the grid may have, a whole number from 1 to %d",
             value, MOST_BLOCKS_FLAG);
    return -1;
}

/** --describe: the cap (0: none), and the claim of SAME_BITS. */
static void describe_blocks(void)
{
    printf("most_blocks=%d\n", most_blocks);
    if (SAME_BITS)
        printf("same_bits=1\n");
}

static const driver_flag blocks_flag_names[] = { { "blocks", 1 } };
/** The flag, for STEP's own_flags. */
static const step_flags blocks_flag = {
    .parse = { blocks_flag_names, 1, take_blocks },
    .usage_lines = "      --blocks B   at most B blocks (default: as many as fit on the GPU at once)\n"
                   "      --same-bits  float and double: data of mixed magnitudes at the --check auto sizes up\n"
                   "                   to 2^26+1 and at 2^20, 2^24+7, 2^26, on the own grid and --blocks 1, 2, 7,\n"
                   "                   132, 528, 1024, R runs each with the L2 flushed (and R more without the\n"
                   "                   flush at the last three): one line a size, FAIL if a bit differs\n",
    .describe = describe_blocks,
    /* one block (--blocks 1) sums 8 chunks (17 for doubles) one after another, so that a
       missing barrier between two chunks' sums shows */
    .sanitize_run = SAME_BITS ? "65539 --blocks 1" : NULL,
};

#endif
