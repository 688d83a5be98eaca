/**
 * @file shard_reference.c
 * @brief The reference of an input made in parts (see multi.h).
 */
#include "multi.h"

#include <limits.h>

void reference_add(reference *total, const reference *part)
{
    /* held at the 64-bit limits like cpu_reference(): out of int's range either way */
    if (__builtin_add_overflow(total->exact, part->exact, &total->exact))
        total->exact = part->exact < 0 ? LLONG_MIN : LLONG_MAX;
#if ELEMENT_IS_INTEGER
    total->fits_element = total->fits_element && part->fits_element &&
                          total->exact >= INT_MIN && total->exact <= INT_MAX;
#endif
    total->sum += part->sum;
    total->abs_sum += part->abs_sum;
    total->max_abs = total->max_abs > part->max_abs ? total->max_abs : part->max_abs;
    if (part->nonfinite && !total->nonfinite) {
        total->nonfinite = 1;
        total->nonfinite_index = part->nonfinite_index;
        total->nonfinite_value = part->nonfinite_value;
    }
}
