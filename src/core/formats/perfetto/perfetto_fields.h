// Field numbers of the Perfetto trace protos this importer reads (protos/perfetto/trace/*.proto
// of google/perfetto), and a helper for repeated scalars, which a writer may send packed or
// one field at a time.
#pragma once
#include <cstdint>
#include <cstring>

#include "core/formats/protobuf/wire.h"

namespace strata::perfetto {

namespace trace {
constexpr uint32_t kPacket = 1;
}

namespace packet {
constexpr uint32_t kFtraceEvents = 1, kProcessTree = 2, kChromeEvents = 5, kClockSnapshot = 6,
                   kTimestamp = 8, kSequenceId = 10, kTrackEvent = 11, kInternedData = 12,
                   kSequenceFlags = 13, kIncrementalStateCleared = 41, kPreviousPacketDropped = 42,
                   kProcessDescriptor = 43, kThreadDescriptor = 44, kCompressedPackets = 50,
                   kTimestampClockId = 58, kDefaults = 59, kTrackDescriptor = 60;
constexpr uint64_t kSeqIncrementalStateCleared = 1, kSeqNeedsIncrementalState = 2;
}  // namespace packet

namespace event {
constexpr uint32_t kTimestampDeltaUs = 1, kCategoryIids = 3, kDebugAnnotations = 4,
                   kLegacyEvent = 6, kType = 9, kNameIid = 10, kTrackUuid = 11,
                   kExtraCounterValues = 12, kTimestampAbsoluteUs = 16, kCategories = 22,
                   kName = 23, kCounterValue = 30, kExtraCounterTrackUuids = 31,
                   kSourceLocation = 33, kSourceLocationIid = 34, kFlowIdsOld = 36,
                   kTerminatingFlowIdsOld = 42, kDoubleCounterValue = 44,
                   kExtraDoubleCounterTrackUuids = 45, kExtraDoubleCounterValues = 46,
                   kFlowIds = 47, kTerminatingFlowIds = 48;
constexpr uint64_t kSliceBegin = 1, kSliceEnd = 2, kInstant = 3, kCounter = 4;
}  // namespace event

namespace legacy {
constexpr uint32_t kNameIid = 1, kPhase = 2, kDurationUs = 3, kUnscopedId = 6, kIdScope = 7,
                   kBindId = 8, kLocalId = 10, kGlobalId = 11, kFlowDirection = 13,
                   kPidOverride = 18, kTidOverride = 19;
constexpr uint64_t kFlowIn = 1, kFlowOut = 2, kFlowInOut = 3;
}  // namespace legacy

namespace interned {
constexpr uint32_t kEventCategories = 1, kEventNames = 2, kDebugAnnotationNames = 3,
                   kSourceLocations = 4, kDebugAnnotationStringValues = 29;
// Every interned entry: iid = 1, then its value (name = 2 / str = 2).
constexpr uint32_t kIid = 1, kName = 2;
// SourceLocation.
constexpr uint32_t kFileName = 2, kFunctionName = 3, kLineNumber = 4;
}  // namespace interned

namespace defaults {
constexpr uint32_t kTimestampClockId = 58, kTrackEventDefaults = 11;
}

namespace descriptor {  // TrackDescriptor, ProcessDescriptor, ThreadDescriptor, counter
constexpr uint32_t kUuid = 1, kName = 2, kProcess = 3, kThread = 4, kParentUuid = 5,
                   kChromeProcess = 6, kCounter = 8, kStaticName = 10;
constexpr uint32_t kPid = 1, kCmdline = 2, kProcessName = 6, kChromeProcessType = 4;
constexpr uint32_t kTid = 2, kThreadName = 5, kReferenceTimestampUs = 6;
constexpr uint32_t kCounterUnitMultiplier = 4, kCounterIsIncremental = 5;
}  // namespace descriptor

namespace clock {
constexpr uint32_t kClocks = 1, kPrimaryTraceClock = 2;
constexpr uint32_t kClockId = 1, kTimestamp = 2, kIsIncremental = 3, kUnitMultiplierNs = 4;
constexpr uint32_t kBoottime = 6;
constexpr uint32_t kFirstSequenceScoped = 64, kLastSequenceScoped = 127;
}  // namespace clock

namespace annotation {
constexpr uint32_t kNameIid = 1, kBoolValue = 2, kUintValue = 3, kIntValue = 4, kDoubleValue = 5,
                   kStringValue = 6, kPointerValue = 7, kNestedValue = 8, kLegacyJsonValue = 9,
                   kName = 10, kDictEntries = 11, kArrayValues = 12, kProtoTypeNameIid = 13,
                   kProtoValue = 14, kProtoTypeName = 16, kStringValueIid = 17;
// NestedValue.
constexpr uint32_t kNestedType = 1, kDictKeys = 2, kDictValues = 3, kNestedArray = 4,
                   kNestedInt = 5, kNestedDouble = 6, kNestedBool = 7, kNestedString = 8;
}  // namespace annotation

// Calls fn(value) for each element of a repeated scalar field `f`: one value, or a packed
// run (varints, or 8-byte values when `fixed64`).
template <class Fn>
bool for_each_scalar(const wire::Field& f, bool fixed64, Fn fn) {
  if (f.type != wire::kLen) {
    fn(f.value);
    return true;
  }
  const uint8_t* p = f.data;
  const uint8_t* end = f.data + f.size;
  while (p < end) {
    uint64_t v;
    if (fixed64) {
      if (end - p < 8) return false;
      std::memcpy(&v, p, 8);
      p += 8;
    } else if (!wire::read_varint(p, end, &v)) {
      return false;
    }
    fn(v);
  }
  return true;
}

}  // namespace strata::perfetto
