// Calls from the UI module out to the page's JavaScript (web/page/strata.js installs
// Module.strataHost before main() runs).
#pragma once
#include <cstddef>
#include <cstdint>

namespace strata {

void host_post_to_engine(const void* bytes, size_t n);  // a protocol message for the worker
void host_request_details(uint32_t event);              // engine resolves, then ui_set_details
void host_request_hover_details(uint32_t event);  // the same for a tooltip: ui_set_hover_details
void host_open_file_picker();
// The Compare tab's "Compare with...": a picked trace loads as B (answer: ui_compare_set_result).
void host_compare_file_picker();
// B's timeline in the Compare tab: a protocol message for B's engine (answers arrive through
// ui_compare_receive), a panel query of B (answered as ui_query_result), and what the two
// timelines line up on (mode "start" | "step" | "order" | "event"; answer: ui_compare_set_result).
void host_compare_post_to_engine(const void* bytes, size_t n);
void host_compare_query(uint32_t id, const char* kind, const char* args_json);
void host_compare_align(const char* mode, double step, const char* event);
// The linked selection: the counterparts of A's events in B (from_b false) or of B's in A,
// args {"events": [...]} (answered as ui_query_result, REPLY_KEYS.compareMatch); B's event's
// details (answered by ui_compare_details).
void host_compare_match(uint32_t id, bool from_b, const char* args_json);
void host_compare_details(uint32_t event);
// A panel query (engine_queries.cc); the answer arrives as ui_query_result(id, json).
void host_query(uint32_t id, const char* kind, const char* args_json);
void host_selection_changed(int64_t event);
double host_now_ms();
// Loss view: re-extract a log with new tags (answer: ui_loss_points), forget a log, and save
// text as a file download (CSV export).
void host_loss_set_tags(uint32_t id, const char* loss_tag, const char* iteration_tag);
void host_loss_remove(uint32_t id);
void host_download(const char* file_name, const char* text);
// The Pod tab's "Open": these hosts (a JSON array of names) load as one trace (the worker's
// podHosts; the answer is a load's, and the tab gets the new table through ui_pod_table).
void host_pod_open(const char* names_json);
// The lazy tile bundle shown, read again whole (the Analysis tab's "Load whole").
void host_load_whole();

}  // namespace strata
