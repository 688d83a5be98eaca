/**
 * @file shard_reference.h
 * @brief The reference of an input made in parts, one per GPU: the sum of its parts'
 * (common/data.h's cpu_reference() of each), so that no process needs the whole input.
 */
#ifndef REDUCE_SHARD_REFERENCE_H
#define REDUCE_SHARD_REFERENCE_H

#include "data.h"

/**
 * Adds the reference of one part of an input to that of the parts before it, so an
 * input made in parts is checked against the sum of its parts' references. The first
 * NaN's or infinity's index (nonfinite_index) stays the one in its part.
 */
void reference_add(reference *total, const reference *part);

#endif
