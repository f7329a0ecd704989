#!/usr/bin/env bash
# Writes the starting corpus of one fuzz target into <out dir>, from the project's own code:
# the generators in src/tools (built in <tools dir>), protoc on proto/*.proto (the schemas the
# importers read) and the small text writers below. (strata_make_tpu_xplane's files are 1 MB
# at least, its op table is fixed: too big for a fuzzer's input.) Never copied from ../shared/data.
#   tests/fuzz/make_seeds.sh <target> <out dir> <tools dir>
# tests/fuzz/seeds/<target>/ is its output, committed so that ctest replays every target.
# Targets whose first bytes choose chunk split points (fuzz_target.h split_points) get seeds
# with those bytes in front ("\x40\xa0": three chunks; "\0\0": one).
set -euo pipefail
TARGET=$1
OUT=$2
TOOLS=$3
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$OUT"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# prefix <bytes as printf escapes> <in> <out>
prefix() { { printf "$1"; cat "$2"; } >"$3"; }

hlo_text_modules() {
  cat >"$TMP/fusion.hlo" <<'EOF'
HloModule jit_seed, is_scheduled=true, entry_computation_layout={(f32[6,8]{1,0})->f32[6,8]{1,0}}

FileNames
1 "/src/model.py"

FunctionNames
1 "<module>"
2 "step"

FileLocations
1 {file_name_id=1 function_name_id=1 line=10 end_line=10 column=4 end_column=10}
2 {file_name_id=1 function_name_id=2 line=20 end_line=21 column=2 end_column=9}

StackFrames
1 {file_location_id=1 parent_frame_id=1}
2 {file_location_id=2 parent_frame_id=2}


%fused_computation (param_0: f32[6,8]) -> f32[6,8] {
  %param_0 = f32[6,8]{1,0} parameter(0)
  %add.1 = f32[6,8]{1,0} add(%param_0, %param_0), metadata={op_name="jit(f)/add" stack_frame_id=2}
  ROOT %mul.0 = f32[6,8]{1,0} multiply(%add.1, %param_0), metadata={op_name="jit(f)/mul" source_file="/src/model.py" source_line=22}
}

%cond (p: (s32[], f32[6,8])) -> pred[] {
  %p = (s32[], f32[6,8]{1,0}) parameter(0)
  %i = s32[] get-tuple-element(%p), index=0
  %n = s32[] constant(4)
  ROOT %lt = pred[] compare(%i, %n), direction=LT
}

%body (p.1: (s32[], f32[6,8])) -> (s32[], f32[6,8]) {
  %p.1 = (s32[], f32[6,8]{1,0}) parameter(0)
  %i.1 = s32[] get-tuple-element(%p.1), index=0
  %x = f32[6,8]{1,0} get-tuple-element(%p.1), index=1
  %one = s32[] constant(1)
  %next = s32[] add(%i.1, %one)
  %f = f32[6,8]{1,0} fusion(%x), kind=kLoop, calls=%fused_computation
  ROOT %t = (s32[], f32[6,8]{1,0}) tuple(%next, %f)
}

ENTRY %main.9 (Arg_0.1: f32[6,8]) -> f32[6,8] {
  %Arg_0.1 = f32[6,8]{1,0:T(8,128)S(1)} parameter(0), sharding={replicated}
  %zero = s32[] constant(0)
  %init = (s32[], f32[6,8]{1,0}) tuple(%zero, %Arg_0.1)
  %w = (s32[], f32[6,8]{1,0}) while(%init), condition=%cond, body=%body, backend_config={"known_trip_count":{"n":"4"}}
  %cc = f32[6,8]{1,0} custom-call(%Arg_0.1), custom_call_target="Sharding"
  %r = f32[6,8]{1,0} get-tuple-element(%w), index=1
  ROOT %out = f32[6,8]{1,0} add(%r, %cc)
}
EOF
  cat >"$TMP/split.hlo" <<'EOF'
// A file of two modules, as hlo-opt splits them.
HloModule a

ENTRY e {
  p = bf16[2,?]{1,0} parameter(0)
  ROOT r = bf16[2,?]{1,0} negate(p)
}

// -----

HloModule b, entry_computation_layout={(f32[])->f32[]}

%sum (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}

ENTRY %e2 (q: f32[4]) -> f32[] {
  %q = f32[4]{0} parameter(0)
  %z = f32[] constant(0)
  ROOT %red = f32[] reduce(%q, %z), dimensions={0}, to_apply=%sum
}
EOF
}

case "$TARGET" in
  chrome_json)
    cp "$ROOT"/tests/fuzz/seeds/*.json "$OUT"/
    "$TOOLS/strata_make_demo" "$TMP/demo.json" >/dev/null
    { printf '\x40\xa0'; head -c 8000 "$TMP/demo.json"; } >"$OUT/demo_head.json"
    ;;
  xplane)
    xspace() { protoc --proto_path="$ROOT/proto" --encode=tensorflow.profiler.XSpace xplane.proto; }
    # A TPU core: XLA Modules, Steps and XLA Ops rows, op metadata with XProf's stats, an op
    # nested in another, an aggregated event, plane stats (peaks).
    xspace >"$TMP/tpu.pb" <<'EOF'
planes { id: 1 name: "/device:TPU:0"
  lines { id: 1 name: "XLA Modules" timestamp_ns: 1000
    events { metadata_id: 3 offset_ps: 0 duration_ps: 90000 stats { metadata_id: 20 uint64_value: 9223372036854775809 } } }
  lines { id: 2 name: "Steps" timestamp_ns: 1000
    events { metadata_id: 4 offset_ps: 0 duration_ps: 95000 stats { metadata_id: 24 int64_value: 7 } } }
  lines { id: 3 name: "XLA Ops" timestamp_ns: 1000
    events { metadata_id: 1 offset_ps: 100 duration_ps: 40000 }
    events { metadata_id: 2 offset_ps: 10000 duration_ps: 20000 stats { metadata_id: 23 str_value: "fusion.1 = f32[8]{0} fusion(p), kind=kLoop" } }
    events { metadata_id: 2 num_occurrences: 3 duration_ps: 100 } }
  event_metadata { key: 1 value { id: 1 name: "fusion.1" display_name: "fusion.1"
    stats { metadata_id: 21 str_value: "convolution" } stats { metadata_id: 22 uint64_value: 1000000 }
    stats { metadata_id: 25 uint64_value: 4096 } stats { metadata_id: 20 uint64_value: 9223372036854775809 } child_id: 2 } }
  event_metadata { key: 2 value { id: 2 name: "add.2" stats { metadata_id: 21 str_value: "elementwise" } } }
  event_metadata { key: 3 value { id: 3 name: "jit_step(9223372036854775809)" } }
  event_metadata { key: 4 value { id: 4 name: "7" } }
  stat_metadata { key: 20 value { id: 20 name: "program_id" } }
  stat_metadata { key: 21 value { id: 21 name: "hlo_category" } }
  stat_metadata { key: 22 value { id: 22 name: "flops" } }
  stat_metadata { key: 23 value { id: 23 name: "long_name" } }
  stat_metadata { key: 24 value { id: 24 name: "group_id" } }
  stat_metadata { key: 25 value { id: 25 name: "bytes_accessed" } }
  stat_metadata { key: 26 value { id: 26 name: "peak_teraflops_per_second" } }
  stats { metadata_id: 26 double_value: 275 } }
EOF
    prefix '\0\0' "$TMP/tpu.pb" "$OUT/tpu_core"
    # A GPU stream with a kernel (kernel_details), its launch on a host thread (correlation_id),
    # a flow, a step, and a memory allocation / deallocation pair on the host.
    xspace >"$TMP/gpu.pb" <<'EOF'
planes { id: 2 name: "/host:CPU"
  lines { id: 10 name: "python" timestamp_ns: 500
    events { metadata_id: 1 offset_ps: 0 duration_ps: 900000 stats { metadata_id: 12 int64_value: 3 } stats { metadata_id: 13 str_value: "step 3" } }
    events { metadata_id: 2 offset_ps: 1000 duration_ps: 2000 stats { metadata_id: 10 uint64_value: 77 } stats { metadata_id: 11 uint64_value: 72057594037927941 } }
    events { metadata_id: 4 offset_ps: 5000 duration_ps: 10 stats { metadata_id: 15 str_value: "GPU_0_bfc" } stats { metadata_id: 16 int64_value: 4096 } stats { metadata_id: 17 uint64_value: 140000 } stats { metadata_id: 18 ref_value: 15 } }
    events { metadata_id: 5 offset_ps: 9000 duration_ps: 10 stats { metadata_id: 15 str_value: "GPU_0_bfc" } stats { metadata_id: 16 int64_value: 0 } stats { metadata_id: 17 uint64_value: 140000 } } }
  event_metadata { key: 1 value { id: 1 name: "TrainStep" } }
  event_metadata { key: 2 value { id: 2 name: "cudaLaunchKernel" } }
  event_metadata { key: 4 value { id: 4 name: "MemoryAllocation" } }
  event_metadata { key: 5 value { id: 5 name: "MemoryDeallocation" } }
  stat_metadata { key: 10 value { id: 10 name: "correlation_id" } }
  stat_metadata { key: 11 value { id: 11 name: "flow" } }
  stat_metadata { key: 12 value { id: 12 name: "group_id" } }
  stat_metadata { key: 13 value { id: 13 name: "step_name" } }
  stat_metadata { key: 15 value { id: 15 name: "allocator_name" } }
  stat_metadata { key: 16 value { id: 16 name: "bytes_allocated" } }
  stat_metadata { key: 17 value { id: 17 name: "addr" } }
  stat_metadata { key: 18 value { id: 18 name: "region_type" } } }
planes { id: 3 name: "/device:GPU:0"
  lines { id: 20 name: "Stream #7(Compute)" display_name: "Stream #7" timestamp_ns: 500
    events { metadata_id: 1 offset_ps: 4000 duration_ps: 8000 stats { metadata_id: 10 uint64_value: 77 } stats { metadata_id: 11 uint64_value: 72057594037927941 }
      stats { metadata_id: 14 str_value: "regs:32 static_shared:0 dynamic_shared:1024 grid:564,1,1 block:256,1,1 occ_pct:50" }
      stats { metadata_id: 19 str_value: "fusion.1" } } }
  event_metadata { key: 1 value { id: 1 name: "volta_sgemm_128x64_nn" } }
  stat_metadata { key: 10 value { id: 10 name: "correlation_id" } }
  stat_metadata { key: 11 value { id: 11 name: "flow" } }
  stat_metadata { key: 14 value { id: 14 name: "kernel_details" } }
  stat_metadata { key: 19 value { id: 19 name: "hlo_op" } } }
errors: "seed"
warnings: "seed warning"
hostnames: "host0"
EOF
    prefix '\x40\xa0' "$TMP/gpu.pb" "$OUT/gpu_host_split"
    # The metadata plane: an HloProto (protoc on proto/hlo.proto) in an event metadata's bytes,
    # keyed by its program id, before the TPU plane.
    protoc --proto_path="$ROOT/proto" --encode=xla.HloProto hlo.proto >"$TMP/hlo.pb" <<'EOF'
hlo_module { name: "jit_step" entry_computation_id: 1
  computations { name: "main" id: 1 root_id: 2
    instructions { name: "p" opcode: "parameter" id: 1 parameter_number: 0 shape { element_type: 11 dimensions: 8 } }
    instructions { name: "fusion.1" opcode: "negate" id: 2 operand_ids: 1 shape { element_type: 11 dimensions: 8 } } } }
EOF
    hlo_bytes=$(python3 -c 'import sys; print("".join("\\%03o" % b for b in open(sys.argv[1], "rb").read()))' "$TMP/hlo.pb")
    printf 'planes { id: 9 name: "/host:metadata" event_metadata { key: 123 value { id: 123 name: "jit_step" metadata: "%s" } } }\n' "$hlo_bytes" |
      xspace >"$TMP/meta.pb"
    cat "$TMP/meta.pb" "$TMP/tpu.pb" >"$TMP/meta_tpu.pb"
    prefix '\x10\x30' "$TMP/meta_tpu.pb" "$OUT/metadata_and_tpu"
    ;;
  hlo_text)
    hlo_text_modules
    prefix '\0\0' "$TMP/fusion.hlo" "$OUT/fusion_while"
    prefix '\x40\xa0' "$TMP/split.hlo" "$OUT/two_modules_split"
    ;;
  hlo_proto)
    protoc --proto_path="$ROOT/proto" --encode=xla.HloProto hlo.proto >"$OUT/fusion.hlo_proto.pb" <<'EOF'
hlo_module { name: "jit_seed" entry_computation_name: "main" id: 3 entry_computation_id: 2
  computations { name: "fused" id: 1 root_id: 12 is_fusion_computation: true
    instructions { name: "p0" opcode: "parameter" id: 11 parameter_number: 0
      shape { element_type: 11 dimensions: 6 dimensions: 8 layout { minor_to_major: 1 minor_to_major: 0 } } }
    instructions { name: "neg" opcode: "negate" id: 12 operand_ids: 11
      shape { element_type: 11 dimensions: 6 dimensions: 8 layout { minor_to_major: 1 minor_to_major: 0 tiles { dimensions: 8 dimensions: 128 } memory_space: 1 } }
      metadata { op_type: "Neg" op_name: "jit(f)/neg" stack_frame_id: 2 } } }
  computations { name: "main" id: 2 root_id: 23
    instructions { name: "arg" opcode: "parameter" id: 21 parameter_number: 0
      shape { element_type: 11 dimensions: 6 dimensions: 8 } }
    instructions { name: "f" opcode: "fusion" id: 22 operand_ids: 21 called_computation_ids: 1 fusion_kind: "kLoop"
      shape { element_type: 11 dimensions: 6 dimensions: 8 } backend_config: "{\"x\":1}" }
    instructions { name: "t" opcode: "tuple" id: 23 operand_ids: 22 operand_ids: 21
      shape { element_type: 13 tuple_shapes { element_type: 11 dimensions: 6 dimensions: 8 } tuple_shapes { element_type: 16 dimensions: 2 is_dynamic_dimension: true } } } }
  stack_frame_index { file_names: "/src/model.py" function_names: "step" function_names: "inner"
    file_locations { file_name_id: 1 function_name_id: 1 line: 10 }
    file_locations { file_name_id: 1 function_name_id: 2 line: 20 column: 3 }
    stack_frames { file_location_id: 1 parent_frame_id: 0 }
    stack_frames { file_location_id: 2 parent_frame_id: 1 } } }
EOF
    # A bare HloModuleProto (no HloProto wrapper).
    protoc --proto_path="$ROOT/proto" --encode=xla.HloModuleProto hlo.proto >"$OUT/bare_module.pb" <<'EOF'
name: "bare" entry_computation_id: 1
computations { name: "e" id: 1 root_id: 2
  instructions { name: "c" opcode: "constant" id: 1 shape { element_type: 4 } }
  instructions { name: "cc" opcode: "custom-call" id: 2 operand_ids: 1 custom_call_target: "foo" shape { element_type: 4 } } }
EOF
    ;;
  ascend_csv)
    printf '\xef\xbb\xbfComponent,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type\nPTA,1736408883573957.920\t,10.5,20.25,10.5,187651123,NPU:0\nGE,1736408883574957.001\t,"1,5",20,1.5,0,NPU:0\r\nPTA+GE,1736408883575957,12,40,12,,NPU:0\n' >"$OUT/memory_record.csv"
    printf 'Component,Timestamp(us),Total Reserved(MB),Device\nAPP,1736408883573957.920\t,100.5,NPU:0\nHCCL,1736408883583957.920\t,4,NPU:1\n' >"$OUT/npu_module_mem.csv"
    printf 'Name,Size(KB),Allocation Time(us),Release Time(us),Active Release Time(us),Duration(us),Active Duration(us),Allocation Total Allocated(MB),Allocation Total Reserved(MB),Allocation Total Active(MB),Release Total Allocated(MB),Release Total Reserved(MB),Release Total Active(MB),Stream Ptr,Device Type\n"aten::empty_strided",512.0,1736408883573957.920\t,1736408883574957.920\t,,1000,,10,20,10,9.5,20,9.5,1,NPU:0\n"aten::""quoted""",4,1736408883575000\t,,,,,1,2,1,,,,1,NPU:0\n' >"$OUT/operator_memory.csv"
    ;;
  training_log)
    "$TOOLS/strata_make_loss_log" "$TMP/train.log" 1 3 >/dev/null
    head -c 6000 "$TMP/train.log" >"$TMP/head.log"
    prefix '\x40\xa0' "$TMP/head.log" "$OUT/megatron_split"
    printf '\0\0Step at 10 with Perplexity: 3.5e1\nstep: 20 loss: 2.25\n\033[32mstep: 30 loss: nan\033[0m\r\nepoch 1 iter 40 loss=1.0\n{"step": 50, "loss": 0.5}\n' >"$OUT/mixed"
    ;;
  compressed)
    for f in "$ROOT"/tests/fuzz/seeds/complete_begin_end.json "$ROOT"/tests/fuzz/seeds/flows_ac2g.json; do
      b=$(basename "$f" .json)
      gzip -9nc "$f" >"$TMP/$b.gz"
      zstd -q -19 -c "$f" >"$TMP/$b.zst"
      prefix '\x08\x30\x00' "$TMP/$b.gz" "$OUT/$b.gz"
      prefix '\x30\x60\x01' "$TMP/$b.zst" "$OUT/$b.zst"
    done
    cat "$TMP"/complete_begin_end.gz "$TMP"/flows_ac2g.gz >"$TMP/multi.gz"
    prefix '\x10\x20\x01' "$TMP/multi.gz" "$OUT/multi_member.gz"
    bash "$0" xplane "$TMP/x" "$TOOLS"
    tail -c +3 "$TMP/x/tpu_core" | zstd -q -c >"$TMP/x.zst"
    prefix '\x20\x40\x03' "$TMP/x.zst" "$OUT/xplane.zst"
    prefix '\0\0\x06' "$ROOT/tests/fuzz/seeds/nestable_async.json" "$OUT/plain.json"
    ;;
  runs)
    printf '\0prof/run1/host_1_20240101_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json\nprof/run1/host_1_20240101_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv\nprof/run1/host_2_20240101_ascend_pt/ASCEND_PROFILER_OUTPUT/operator_details.csv\nprof/run1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/memory_record.csv\nprof/run2/worker0.1623143566756.pt.trace.json.gz\nprof/run2/worker1.pt.trace.json\nprof/rank-0.json.zst\n' >"$OUT/discovery"
    {
      printf '\1'
      printf 'Name,Input Shapes,Call Stack,Host Self Duration(us),Host Total Duration(us),Device Self Duration(us),Device Total Duration(us),Device Self Duration With AICore(us),Device Total Duration With AICore(us)\naten::add,"2,3","a.py(1): f\nb.py(2): g",1.5,2,3,4,1,2\naten::mm,"4;4",,10,12,7,8,,\n'
      printf '\0Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim,Input Shapes\n1,MatMul_1,MatMulV2,AI_CORE,1736408883573957.920\t,12.5,0.5,8,"2,3"\n2,Add_2,Add,AI_VECTOR_CORE,1736408883574957,3,0,1,\n'
      printf '\0OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%%)\nMatMulV2,AI_CORE,1,12.5,12.5,12.5,12.5,80\n'
      printf '\0Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,Communication(Not Overlapped and Exclude Receive)\n1,100,20,5,25,3,0,0,20\n'
      printf '\0{"step1":{"Total Op Info":{"Communication Time Info":{"Elapse Time(ms)":1.5}},"hcom_allReduce__1_0_1@1":{"Communication Time Info":{"Elapse Time(ms)":1.5,"Transit Time(ms)":1,"Wait Time(ms)":0.25,"Synchronization Time(ms)":0.1,"Idle Time(ms)":0.25}}}}'
      printf '\0Step,Type,Index,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble\n1,rank,0,100,20,5,25,3,0,0\n1,stage,"(0,1)",1,1,1,1,1,1,1\n'
      printf '\0{"(0,1)":{"step1":{"hcom_allReduce__1":{"0":{"Communication Time Info":{"Elapse Time(ms)":2}}}}}}'
    } >"$OUT/ascend_tables"
    for f in "$ROOT"/tests/fuzz/seeds/flows_ac2g.json "$ROOT"/tests/fuzz/seeds/complete_begin_end.json; do
      prefix '\2' "$f" "$OUT/trace_$(basename "$f")"
    done
    ;;
  perfetto)
    "$TOOLS/strata_make_perfetto" "$TMP/feature.pftrace"
    prefix '\0\0' "$TMP/feature.pftrace" "$OUT/feature"
    prefix '\x40\xa0' "$TMP/feature.pftrace" "$OUT/feature_split"
    "$TOOLS/strata_make_perfetto" "$TMP/bundled.pftrace" bundled
    prefix '\x40\xa0' "$TMP/bundled.pftrace" "$OUT/bundled_split"
    ;;
  loss_jsonl | loss_csv)
    # Small hand-written logs, kept as they are in tests/fuzz/seeds/<target>/.
    [[ $OUT -ef $ROOT/tests/fuzz/seeds/$TARGET ]] || cp "$ROOT/tests/fuzz/seeds/$TARGET/"* "$OUT/"
    ;;
  tfevents)
    # Records for the target to frame (a 2-byte little-endian length, then Event bytes), written
    # here from the Event / Summary / TensorProto field numbers: a file_version event, TF1
    # simple_value scalars, TF2 float / double tensors with "scalars" plugin metadata, a text
    # summary of another plugin.
    python3 - "$OUT" <<'PY'
import struct, sys
def varint(v):
    out = b""
    while True:
        b = v & 0x7F; v >>= 7
        out += bytes([b | (0x80 if v else 0)])
        if not v: return out
def key(n, w): return varint(n << 3 | w)
def ld(n, b): return key(n, 2) + varint(len(b)) + b
def event(step, summary=None, version=None):
    e = key(1, 1) + struct.pack("<d", 1.6e9 + step) + key(2, 0) + varint(step)
    if version: e += ld(3, version.encode())
    if summary is not None: e += ld(5, summary)
    return e
def meta(plugin): return ld(9, ld(1, ld(1, plugin.encode())))
def simple(tag, v): return ld(1, ld(1, tag.encode()) + key(2, 5) + struct.pack("<f", v))
def tensor_float(tag, v):
    t = key(1, 0) + varint(1) + ld(2, b"") + ld(5, struct.pack("<f", v))
    return ld(1, ld(1, tag.encode()) + ld(8, t) + meta("scalars"))
def tensor_double(tag, v):
    t = key(1, 0) + varint(2) + ld(2, b"") + ld(4, struct.pack("<d", v))
    return ld(1, ld(1, tag.encode()) + ld(8, t) + meta("scalars"))
def text(tag, s):
    t = key(1, 0) + varint(7) + ld(2, b"") + ld(8, s.encode())
    return ld(1, ld(1, tag.encode()) + ld(8, t) + meta("text"))
def records(events): return b"".join(struct.pack("<H", len(e)) + e for e in events)
tf1 = [event(0, version="brain.Event:2")] + [
    event(s, simple("loss", 3.0 / (s + 1)) + simple("learning_rate", 1e-3)) for s in range(1, 12)]
tf2 = [event(0, version="brain.Event:2"), event(0, text("args", "lr=0.001"))] + [
    event(s, tensor_float("train/loss", 2.0 - s * 0.1) + tensor_double("eval/acc", s * 0.05))
    for s in range(1, 12)]
out = sys.argv[1]
open(out + "/tf1_simple_value", "wb").write(b"\x40\xa0\x00" + records(tf1))
open(out + "/tf2_tensors", "wb").write(b"\x00\x00\x00" + records(tf2))
open(out + "/tf2_bit_flipped", "wb").write(b"\x10\x60\x07" + records(tf2[:6]))
PY
    ;;
  sqlite)
    # Small databases of the two shapes the importers read, with 512-byte pages so that a few
    # pages hold the schema and the rows and the whole file fits the fuzzer's input size: an
    # Nsight Systems export (kernels, runtime calls and NVTX ranges by StringIds) and an Ascend
    # profiler db (PyTorch / CANN APIs, tasks, STRING_IDS). Written by Python's sqlite3 from
    # the table and column names the importers select (src/core/formats/sqlite/).
    python3 - "$OUT" <<'PY'
import os, sqlite3, sys
def db(path, script, rows):
    if os.path.exists(path): os.remove(path)
    c = sqlite3.connect(path)
    c.execute("PRAGMA page_size=512")
    c.execute("PRAGMA journal_mode=DELETE")
    c.executescript(script)
    for table, values in rows:
        for v in values:
            c.execute(f"INSERT INTO {table} VALUES ({','.join('?' * len(v))})", v)
    c.commit()
    c.execute("VACUUM")
    c.close()
out = sys.argv[1]
db(out + "/nsys.sqlite", """
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT, end INT, deviceId INT, streamId INT,
  correlationId INT, demangledName INT, shortName INT, gridX INT, gridY INT, gridZ INT,
  blockX INT, blockY INT, blockZ INT, registersPerThread INT, staticSharedMemory INT,
  dynamicSharedMemory INT);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INT, end INT, globalTid INT, correlationId INT,
  nameId INT);
CREATE TABLE NVTX_EVENTS (start INT, end INT, eventType INT, text TEXT, textId INT,
  globalTid INT, rangeId INT, domainId INT);
CREATE TABLE TARGET_INFO_GPU (id INT, name TEXT);
""", [
    ("StringIds", [(1, "gemm_kernel"), (2, "gemm"), (3, "cudaLaunchKernel"), (4, "step")]),
    ("CUPTI_ACTIVITY_KIND_KERNEL",
     [(1000 + i * 500, 1400 + i * 500, 0, 7, 10 + i, 1, 2, 4, 1, 1, 128, 1, 1, 32, 0, 0)
      for i in range(4)]),
    ("CUPTI_ACTIVITY_KIND_RUNTIME",
     [(900 + i * 500, 950 + i * 500, 281474976710656 + 12, 10 + i, 3) for i in range(4)]),
    ("NVTX_EVENTS", [(800, 3000, 59, None, 4, 281474976710656 + 12, 1, 0)]),
    ("TARGET_INFO_GPU", [(0, "NVIDIA H100")]),
])
db(out + "/ascend.db", """
CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);
CREATE TABLE ENUM_API_TYPE (id INT, name TEXT);
CREATE TABLE PYTORCH_API (startNs INT, endNs INT, globalTid INT, connectionId INT, name INT,
  type INT);
CREATE TABLE CANN_API (startNs INT, endNs INT, globalTid INT, connectionId INT, name INT,
  type INT);
CREATE TABLE TASK (startNs INT, endNs INT, streamId INT, connectionId INT, globalTaskId INT,
  taskType INT);
CREATE TABLE COMPUTE_TASK_INFO (globalTaskId INT, name INT);
CREATE TABLE CONNECTION_IDS (id INT, connectionId INT);
""", [
    ("STRING_IDS", [(1, "aten::matmul"), (2, "aclnnMatmul"), (3, "MatMul_kernel"),
                    (4, "KERNEL_AICORE")]),
    ("ENUM_API_TYPE", [(1, "op"), (2, "node")]),
    ("PYTORCH_API", [(1000 + i * 400, 1300 + i * 400, 77, 20 + i, 1, 1) for i in range(3)]),
    ("CANN_API", [(1050 + i * 400, 1250 + i * 400, 77, 20 + i, 2, 2) for i in range(3)]),
    ("TASK", [(1400 + i * 400, 1600 + i * 400, 3, 20 + i, i, 4) for i in range(3)]),
    ("COMPUTE_TASK_INFO", [(i, 3) for i in range(3)]),
    ("CONNECTION_IDS", [(i, 20 + i) for i in range(3)]),
])
PY
    ;;
  *)
    echo "make_seeds.sh: no seeds for target '$TARGET'" >&2
    ;;
esac
