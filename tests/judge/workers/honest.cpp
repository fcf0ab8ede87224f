// The honest control: a correct scan and find_repeats on host memory (the
// judge's --memory host), so the judge's checks can be shown to pass.
#include "honest.h"
#include "slot.h"

HONEST_SLOT
