/*
 * Bounds of an eager launch's code (preload/hot.h hv_launch_code_prefetch):
 * two empty functions in sections that GNU ld's SORT(.text.sorted.*) places
 * just before and just after the functions marked HV_LAUNCH_FN
 * (".text.sorted.hv_step2l1"): "hv_step2l0" and "hv_step2l2" sort either
 * side of it, and all three after the shared step functions ("hv_step2")
 * and before the HIP front end's wrappers ("hv_step3hip").
 * tests/core/step_text.sh checks that order in the built library.
 */
#include "preload/hot.h"

__attribute__((used, noinline, section(".text.sorted.hv_step2l0"))) void hv_launch_text_begin(void)
{
    __asm__ __volatile__("");
}

__attribute__((used, noinline, section(".text.sorted.hv_step2l2"))) void hv_launch_text_end(void)
{
    __asm__ __volatile__("");
}
