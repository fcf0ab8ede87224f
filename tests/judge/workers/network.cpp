// Looks for a network beyond loopback: the work is done only if one is
// there (the sandbox has none).
#include <ifaddrs.h>

#include <cstring>

#include "honest.h"
#include "slot.h"

namespace {
bool has_network() {
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return false;
  bool found = false;
  for (ifaddrs* i = list; i; i = i->ifa_next)
    if (i->ifa_name && std::strcmp(i->ifa_name, "lo") != 0) found = true;
  freeifaddrs(list);
  return found;
}
} // namespace

SLOT_IF_ATTACK_WORKS(has_network)
