// xla.HloProto / xla.HloModuleProto binaries (proto/hlo.proto documents the subset read) with
// the bounds-checked wire reader of the xplane importer (formats/protobuf/wire.h). Shapes are
// rendered to the same text the text format prints, so both paths look alike.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/formats/hlo/hlo_module.h"

namespace strata::hlo {

// Parses a serialized HloProto (field 1 = hlo_module) or a bare HloModuleProto: which one is
// told from the top-level fields. False with `error` (naming the byte offset) when malformed.
bool parse_hlo_proto(const uint8_t* data, size_t size, HloModule* out, std::string* error);

}  // namespace strata::hlo
