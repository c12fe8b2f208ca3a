// See include/RewindCPU.h: whether `rewind_ticks()` counts at a constant rate.

#include "RewindCPU.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

int rewind_ticks_are_constant(void) {
#if defined(__x86_64__)
  unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
  // Leaf 0x80000007, EDX bit 8: the time-stamp counter is invariant (constant rate, runs in
  // every sleep state). Without it the counter may stop or change speed, and timing by it
  // would be wrong.
  if (!__get_cpuid(0x80000007, &eax, &ebx, &ecx, &edx)) return 0;
  return (edx & (1u << 8)) != 0;
#elif defined(__aarch64__)
  return 1;  // the architecture defines the virtual counter as constant-rate
#else
  return 0;
#endif
}
