// The HLO modules inside an XSpace (*.xplane.pb): on the `/host:metadata` plane each
// XEventMetadata may carry a stat named "Hlo Proto" whose bytes are a serialized xla.HloProto;
// the metadata id (or its `program_id` stat) is the program id device events refer to.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/formats/hlo/hlo_module.h"
#include "core/formats/xplane/xplane_tables.h"

namespace strata::hlo {

// Finds the HloProto byte spans of an uncompressed XSpace: src_offset/src_len are relative to
// `data` (the same spans the importer keeps in XSpaceTables::hlo_protos). False with `error`
// when the XSpace framing is damaged before the metadata plane.
bool find_xplane_hlo_protos(const uint8_t* data, size_t size, std::vector<HloProtoSpan>* out,
                            std::string* error);

// Parses every HloProto of the XSpace into `out` (program_id set, in file order). A module
// that fails to parse is skipped and its error appended to `errors`; false only when the XSpace
// itself cannot be read.
bool parse_xplane_hlo(const uint8_t* data, size_t size, std::vector<HloModule>* out,
                      std::vector<std::string>* errors);

}  // namespace strata::hlo
