// The worker side of the channel, for our worker mains: attach the control
// page the judge passes as descriptor 3, say ready, and answer requests
// until the judge says quit. Runs inside the untrusted process, so nothing
// here is believed by the judge.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>

#include "judge/channel.h"

namespace judge {

constexpr int kControlFd = 3;

// Serves requests with `serve` (which sets status, value and message; an
// exception becomes a failed answer with its text) after `ready` returned.
// Returns the worker's exit status: 0 after quit, 2 without a control page.
int serve_requests(const std::function<void(ControlBlock&)>& serve);

// Sets the answer's message (bounded).
void set_message(ControlBlock& block, const char* text);

// The worker's command line as the judge writes it: "--key value" pairs.
struct WorkerArgs {
  std::map<std::string, std::string> values;
  // Whether --memory says device (the default) rather than host.
  bool device() const;
  // --NAME's value as a byte count (0 when absent).
  std::size_t bytes(const std::string& name) const;
};
WorkerArgs parse_worker_args(int argc, char** argv);

} // namespace judge
