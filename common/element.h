/**
 * @file element.h
 * @brief The element type every program reduces, chosen at build time (`make TYPE=float`:
 * -DELEMENT_FLOAT, TYPE=double: -DELEMENT_DOUBLE, else int), so that a kernel never names
 * a concrete type and one step file serves all three builds.
 */
#ifndef REDUCE_ELEMENT_H
#define REDUCE_ELEMENT_H

#if defined(ELEMENT_DOUBLE)
typedef double element_t;
#define ELEMENT_NAME "double"
#define ELEMENT_IS_INTEGER 0
/** Unit roundoff u = 2^-53: the largest relative error of one rounded addition. */
#define ELEMENT_UNIT_ROUNDOFF 1.1102230246251565e-16
#elif defined(ELEMENT_FLOAT)
typedef float element_t;
#define ELEMENT_NAME "float"
#define ELEMENT_IS_INTEGER 0
/** Unit roundoff u = 2^-24: the largest relative error of one rounded addition. */
#define ELEMENT_UNIT_ROUNDOFF 5.9604644775390625e-08
#else
typedef int element_t;
#define ELEMENT_NAME "int"
#define ELEMENT_IS_INTEGER 1
#define ELEMENT_UNIT_ROUNDOFF 0.0
#endif

#ifdef __CUDACC__
/*
 * 16-byte vectors for the steps that load four ints (or floats, or two doubles) with one
 * instruction. vec_sum() adds a vector's lanes so the kernels stay type-free.
 */
#if defined(ELEMENT_DOUBLE)
typedef double2 element_vec_t;
__device__ __forceinline__ element_t vec_sum(element_vec_t v) { return v.x + v.y; }
#elif defined(ELEMENT_FLOAT)
typedef float4 element_vec_t;
__device__ __forceinline__ element_t vec_sum(element_vec_t v) { return (v.x + v.y) + (v.z + v.w); }
#else
typedef int4 element_vec_t;
/** Adds the lanes of one 16-byte load. */
__device__ __forceinline__ element_t vec_sum(element_vec_t v) { return (v.x + v.y) + (v.z + v.w); }
#endif
/** Elements in one 16-byte vector: 4 for int and float, 2 for double. */
#define VEC_WIDTH (sizeof(element_vec_t) / sizeof(element_t))
#endif

#endif
