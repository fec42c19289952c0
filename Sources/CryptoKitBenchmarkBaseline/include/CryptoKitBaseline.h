#ifndef CRYPTOKIT_BASELINE_H
#define CRYPTOKIT_BASELINE_H
#include <stddef.h>
// Placeholder while the baseline is written.
int cryptokit_baseline_ready(void);
#endif
