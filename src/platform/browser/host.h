// Calls from the UI module out to the page's JavaScript (web/strata.js installs
// Module.strataHost before main() runs).
#pragma once
#include <cstddef>
#include <cstdint>

namespace strata {

void host_post_to_engine(const void* bytes, size_t n);  // a protocol message for the worker
void host_request_details(uint32_t event);              // engine resolves, then ui_set_details
void host_open_file_picker();
void host_selection_changed(int64_t event);
double host_now_ms();

}  // namespace strata
