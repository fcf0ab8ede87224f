// The worker side of the channel, for our worker mains: attach the control
// page the judge passes as descriptor 3, say ready, and answer requests
// until the judge says quit. Runs inside the untrusted process, so nothing
// here is believed by the judge.
#pragma once

#include <functional>

#include "judge/channel.h"

namespace judge {

constexpr int kControlFd = 3;

// Serves requests with `serve` (which sets status, value and message; an
// exception becomes a failed answer with its text) after `ready` returned.
// Returns the worker's exit status: 0 after quit, 2 without a control page.
int serve_requests(const std::function<void(ControlBlock&)>& serve);

// Sets the answer's message (bounded).
void set_message(ControlBlock& block, const char* text);

} // namespace judge
