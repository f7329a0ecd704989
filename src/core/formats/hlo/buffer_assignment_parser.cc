// BufferAssignmentProto walked with wire::Reader (no generated classes, like the rest of the
// HloProto path). Unknown fields are skipped; a field of the wrong wire type is ignored, as
// protobuf would keep it as unknown.
#include "core/formats/hlo/buffer_assignment_parser.h"

#include "core/formats/protobuf/wire.h"

namespace strata::hlo {
namespace {

using wire::Field;
using wire::Reader;
using wire::Status;

class Parser {
 public:
  Parser(const uint8_t* base, std::string* error) : base_(base), error_(error) {}

  bool assignment(const uint8_t* p, size_t n, BufferAssignment* out) {
    Reader r(p, n);
    Field f;
    Status st;
    while ((st = r.next(&f)) == Status::kOk) {
      if (f.type != wire::kLen) continue;
      if (f.number == 1) {
        out->logical_buffers.emplace_back();
        if (!logical_buffer(f, &out->logical_buffers.back())) return false;
      } else if (f.number == 2) {
        ++out->alias_count;
      } else if (f.number == 3) {
        out->allocations.emplace_back();
        if (!allocation(f, &out->allocations.back())) return false;
      } else if (f.number == 4) {
        out->traces.emplace_back();
        if (!trace(f, &out->traces.back())) return false;
      }
    }
    return st == Status::kEnd || wire_error(r, "BufferAssignmentProto");
  }

 private:
  bool wire_error(const Reader& r, const char* what) {
    *error_ = "byte " + std::to_string(r.field_start - base_) + ": " + r.why + " in a " + what;
    return false;
  }

  bool logical_buffer(const Field& in, LogicalBuffer* b) {
    Reader r(in.data, in.size);
    Field f;
    Status st;
    while ((st = r.next(&f)) == Status::kOk) {
      if (f.number == 1 && f.type == wire::kVarint) b->id = static_cast<int64_t>(f.value);
      if (f.number == 2 && f.type == wire::kVarint) b->size = static_cast<int64_t>(f.value);
      if (f.number == 4 && f.type == wire::kVarint) b->color = static_cast<int64_t>(f.value);
      if (f.number == 3 && f.type == wire::kLen && !location(f, b)) return false;
    }
    return st == Status::kEnd || wire_error(r, "LogicalBufferProto");
  }

  bool location(const Field& in, LogicalBuffer* b) {
    Reader r(in.data, in.size);
    Field f;
    Status st;
    while ((st = r.next(&f)) == Status::kOk) {
      if (f.number == 2 && f.type == wire::kLen) b->instruction_name = std::string(f.text());
      if (f.number == 4 && f.type == wire::kVarint)
        b->instruction_id = static_cast<int64_t>(f.value);
      if (f.number == 3 && !wire::read_ints(f, &b->shape_index)) {
        *error_ = "byte " + std::to_string(f.data - base_) + ": bad shape_index";
        return false;
      }
    }
    return st == Status::kEnd || wire_error(r, "LogicalBufferProto.Location");
  }

  bool allocation(const Field& in, BufferAllocation* a) {
    Reader r(in.data, in.size);
    Field f;
    Status st;
    while ((st = r.next(&f)) == Status::kOk) {
      if (f.number == 9 && f.type == wire::kLen) {
        a->assigned.emplace_back();
        if (!assigned(f, &a->assigned.back())) return false;
        continue;
      }
      if (f.type != wire::kVarint) continue;
      const auto v = static_cast<int64_t>(f.value);
      switch (f.number) {
        case 1:
          a->index = v;
          break;
        case 2:
          a->size = v;
          break;
        case 3:
          a->is_thread_local = v != 0;
          break;
        case 5:
          a->is_entry_computation_parameter = v != 0;
          break;
        case 6:
          a->parameter_number = v;
          break;
        case 7:
          a->maybe_live_out = v != 0;
          break;
        case 8:
          a->color = v;
          break;
        case 11:
          a->is_tuple = v != 0;
          break;
        case 12:
          a->is_constant = v != 0;
          break;
        default:
          break;
      }
    }
    return st == Status::kEnd || wire_error(r, "BufferAllocationProto");
  }

  bool assigned(const Field& in, AssignedBuffer* a) {
    Reader r(in.data, in.size);
    Field f;
    Status st;
    while ((st = r.next(&f)) == Status::kOk) {
      if (f.type != wire::kVarint) continue;
      const auto v = static_cast<int64_t>(f.value);
      if (f.number == 1) a->logical_buffer_id = v;
      if (f.number == 2) a->offset = v;
      if (f.number == 3) a->size = v;
    }
    return st == Status::kEnd || wire_error(r, "BufferAllocationProto.Assigned");
  }

  bool trace(const Field& in, HeapSimulatorTrace* t) {
    Reader r(in.data, in.size);
    Field f;
    Status st;
    while ((st = r.next(&f)) == Status::kOk) {
      if (f.number == 1 && f.type == wire::kLen) {
        t->events.emplace_back();
        if (!event(f, &t->events.back())) return false;
      }
      if (f.number == 2 && f.type == wire::kVarint) t->whole_module_simulation = f.value != 0;
      if (f.number == 3 && f.type == wire::kVarint)
        t->buffer_allocation_index = static_cast<int64_t>(f.value);
    }
    return st == Status::kEnd || wire_error(r, "HeapSimulatorTrace");
  }

  bool event(const Field& in, HeapEvent* e) {
    Reader r(in.data, in.size);
    Field f;
    Status st;
    while ((st = r.next(&f)) == Status::kOk) {
      if (f.number == 4 && f.type == wire::kLen) e->instruction_name = std::string(f.text());
      if (f.type != wire::kVarint) continue;
      if (f.number == 1) {
        if (f.value > 2) {
          *error_ = "byte " + std::to_string(r.field_start - base_) +
                    ": unknown heap simulator event kind " + std::to_string(f.value);
          return false;
        }
        e->kind = static_cast<HeapEventKind>(f.value);
      }
      if (f.number == 2) e->buffer_id = static_cast<int64_t>(f.value);
      if (f.number == 5) e->share_with_canonical_id = static_cast<int64_t>(f.value);
    }
    return st == Status::kEnd || wire_error(r, "HeapSimulatorTrace.Event");
  }

  const uint8_t* base_;
  std::string* error_;
};

}  // namespace

bool parse_buffer_assignment(const uint8_t* data, size_t size, BufferAssignment* out,
                             std::string* error) {
  *out = BufferAssignment{};
  Parser p(data, error);
  return p.assignment(data, size, out);
}

}  // namespace strata::hlo
