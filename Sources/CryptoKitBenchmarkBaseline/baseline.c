#include "CryptoKitBaseline.h"
int cryptokit_baseline_ready(void) { return 1; }
