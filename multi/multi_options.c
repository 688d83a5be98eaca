/**
 * @file multi_options.c
 * @brief The multi-GPU flags, --help and --describe lines (see multi.h).
 */
#include "multi.h"

#include <stdio.h>
#include <string.h>

/** The one program's driver: what multi_driver() was given, for the callbacks. */
static struct {
    enum multi_kind kind;
    const char *shard_step;
    multi_flags *flags;
} program;

/** The one flag of the multi-GPU programs. */
static const driver_flag multi_flag_list[] = { { "gpus", 1 } };

/** Takes --gpus G (1 .. MAX_GPUS) into program.flags. */
static int take_flag(int index, const char *value, char *error, size_t error_size)
{
    (void)index;   /* --gpus: the only one */
    if (parse_int_in(value, 1, MAX_GPUS, &program.flags->gpus) != 0) {
        snprintf(error, error_size, "--gpus: '%s' is not allowed; give a number of GPUs "
                 "from 1 to those the machine has (nvidia-smi -L)", value);
        return -1;
    }
    return 0;
}

/** The flags multi_driver() refuses (multi.h); each error line says why. */
static int check_flags(const options *opt, char *error, size_t error_size)
{
    if (program.kind == MULTI_RANK_PER_GPU && program.flags->gpus) {
        snprintf(error, error_size, "--gpus belongs to the program of one process for every GPU; this one runs one "
                 "MPI rank per GPU: start G ranks (mpiexec -n G)");
        return -1;
    }
    if (opt->resources) {
        snprintf(error, error_size, "--resources belongs to the one-GPU programs; this one runs %s's kernel "
                 "on every GPU: %s/reduce --resources", program.shard_step, program.shard_step);
        return -1;
    }
    if (opt->device_given || opt->input_path) {
        snprintf(error, error_size, "%s belongs to the one-GPU programs: this one makes its input on each GPU "
                 "and uses GPUs 0 .. G-1 (choose them with CUDA_VISIBLE_DEVICES, %s)",
                 opt->device_given ? "--device" : "--input",
                 program.kind == MULTI_RANK_PER_GPU ? "G with mpiexec -n G: one rank per GPU" : "G with --gpus");
        return -1;
    }
    return 0;
}

/** The end of --help: which GPUs step 12 takes, how to start step 13's ranks. */
static void print_footer(const char *name)
{
    if (program.kind == MULTI_RANK_PER_GPU)
        printf("One MPI rank per GPU, as many ranks as GPUs: mpiexec -n G %s [flags] (srun on a cluster).\n"
               "Each rank takes the GPU of its place on its node; --device, --input, --resources and\n"
               "--gpus belong to the other programs.\n", name);
    else
        printf("--device, --input and --resources belong to the one-GPU programs: this one uses GPUs\n"
               "0 .. G-1 of those CUDA_VISIBLE_DEVICES shows it (e.g. CUDA_VISIBLE_DEVICES=2,3 for two others).\n");
}

/** --describe's multi-GPU lines (multi_driver()). */
static void describe(void)
{
    printf("multi_gpu=1\nshard_step=%s\nprocesses=%s\n", program.shard_step,
           program.kind == MULTI_RANK_PER_GPU ? "one_per_gpu" : "one");
}

const harness_driver *multi_driver(enum multi_kind kind, const char *shard_step, multi_flags *flags)
{
    static harness_driver driver;
    memset(flags, 0, sizeof *flags);
    program.kind = kind;
    program.shard_step = shard_step;
    program.flags = flags;
    driver.flags = (driver_flags){ multi_flag_list, 1, take_flag };
    driver.usage.runs_on = "the GPUs";
    driver.usage.flag_lines = kind == MULTI_RANK_PER_GPU ? "" :
        "      --gpus G     spread the input over GPUs 0 .. G-1 (default: every GPU it sees)\n";
    driver.usage.print_footer = print_footer;
    driver.check_flags = check_flags;
    driver.describe = describe;
    return &driver;
}
