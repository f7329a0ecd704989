// Telling a Perfetto Trace from an XSpace, and naming the packet kinds Strata does not draw.
// Both are protobuf messages whose first field is usually field 1, length-delimited (a
// TracePacket, an XPlane), so the first bytes alone do not tell them apart; the fields inside
// that first message do: an XPlane holds only fields 1-6 (id a varint, name a string, lines,
// metadata maps, stats), while a TracePacket's are mostly above 6 (timestamp 8, sequence id 10,
// track_event 11, interned_data 12, track_descriptor 60, synchronization_marker 36, ...), its
// field 1 (ftrace events) is a message, and its field 3 (trusted_uid) a varint.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

namespace strata::perfetto {

// True when the (decompressed) head of a file is a Perfetto Trace: its top-level fields are
// all `packet` (1, length-delimited) and the first packet's fields decide as above.
bool looks_like_perfetto(const uint8_t* p, size_t n);

// "120 ftrace event bundles, 3 process trees" (kinds by TracePacket field number; metadata
// packets such as the trace config are left out). Empty when nothing is left.
std::string undrawn_list(const std::map<uint32_t, uint64_t>& undrawn);
// The failure of a trace with no TrackEvent: what it holds and what Strata draws.
std::string describe_undrawn(uint64_t packets, const std::map<uint32_t, uint64_t>& undrawn);

}  // namespace strata::perfetto
