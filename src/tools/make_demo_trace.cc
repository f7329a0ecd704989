// strata_make_demo <out.json> [scale] [rank/world]
//
// Writes a deterministic, Kineto-like Chrome trace (object form) of a small transformer training
// loop: a "trainer" process whose python main thread runs nested X slices (ProfilerStep >
// forward / backward / optimizer > modules > aten ops > cudaLaunchKernel), a dataloader thread
// written as B/E pairs, a GPU process with a compute stream and an NCCL stream of kernels, flow
// events from launches to kernels, instants, memory and utilisation counters, and M metadata.
// `scale` multiplies the number of training steps (6 per unit): scale 1 is ~2 MB, scale 500 is
// ~1 GB, for load benchmarks. Output goes through one large buffer, not per-field stream calls.
// `rank/world` (e.g. 3/8) writes one rank of a distributed run: Kineto's distributedInfo, the
// rank in the trainer's labels, its own random timings, and the all-reduce kernels' communication
// metadata (Collective name, message size, dtype, group, Seq) as PyTorch records it; the ranks of
// one world share the clock, so their traces line up when opened together.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

// splitmix64: tiny, fast, and the same sequence on every platform (the output is reproducible).
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi].
  int64_t range(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }

 private:
  uint64_t s_;
};

class Out {
 public:
  explicit Out(FILE* f) : f_(f) { buf_.reserve(kFlush + 4096); }
  ~Out() { flush(); }
  void flush() {
    if (!buf_.empty()) std::fwrite(buf_.data(), 1, buf_.size(), f_);
    buf_.clear();
  }
  Out& s(const char* text) { return raw(text, std::strlen(text)); }
  Out& s(const std::string& text) { return raw(text.data(), text.size()); }
  Out& raw(const char* p, size_t n) {
    buf_.insert(buf_.end(), p, p + n);
    if (buf_.size() >= kFlush) flush();
    return *this;
  }
  Out& i(int64_t v) {
    char tmp[24];
    auto r = std::to_chars(tmp, tmp + sizeof(tmp), v);
    return raw(tmp, static_cast<size_t>(r.ptr - tmp));
  }
  // Nanoseconds written as microseconds with 3 decimals, like Kineto ("1700000000123.456").
  Out& us(int64_t ns) {
    i(ns / 1000);
    char frac[4] = {'.', static_cast<char>('0' + ns / 100 % 10),
                    static_cast<char>('0' + ns / 10 % 10), static_cast<char>('0' + ns % 10)};
    return raw(frac, 4);
  }

 private:
  static constexpr size_t kFlush = 1 << 20;
  FILE* f_;
  std::vector<char> buf_;
};

constexpr int64_t kEpochNs = 1700000000000000000;  // trace clock: epoch ns
constexpr int kTrainerPid = 4242, kMainTid = 4242, kLoaderTid = 4250;
constexpr int kGpuPid = 0, kComputeStream = 7, kNcclStream = 20;
constexpr int kLayers = 12;

class Generator {
 public:
  Generator(Out* out, int rank, int world)
      : o_(*out),
        rng_(20240611 + static_cast<uint64_t>(rank < 0 ? 0 : rank)),
        rank_(rank),
        world_(world) {}

  void run(int steps) {
    o_.s("{\n\"schemaVersion\": 1,\n");
    if (rank_ >= 0)
      o_.s("\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": ")
          .i(rank_)
          .s(", \"world_size\": ")
          .i(world_)
          .s("},\n");
    o_.s("\"deviceProperties\": [{\"id\": 0, \"name\": \"Demo GPU\", ")
        .s("\"totalGlobalMem\": 85899345920, \"computeMajor\": 8, \"computeMinor\": 0}],\n")
        .s("\"traceEvents\": [\n");
    metadata();
    now_ = kEpochNs + 1000000;
    loader_now_ = now_ - 400000;
    for (int step = 0; step < steps; ++step) training_step(step);
    o_.s("{\"ph\": \"i\", \"s\": \"p\", \"name\": \"profiler stopped\", \"pid\": ")
        .i(kTrainerPid)
        .s(", \"tid\": ")
        .i(kMainTid)
        .s(", \"ts\": ")
        .us(now_)
        .s("}\n],\n\"displayTimeUnit\": \"ms\",\n\"otherData\": {\"generator\": ")
        .s("\"strata_make_demo\", \"steps\": ")
        .i(steps)
        .s("}\n}\n");
  }

 private:
  struct Open {
    const char* cat;
    std::string name;
    int64_t start;
    std::string args;
    int64_t external_id = 0;  // an operator's "External id" (open_op), else 0
  };

  void meta(const char* what, int pid, int tid, const char* key, const std::string& value) {
    o_.s("{\"ph\": \"M\", \"name\": \"").s(what).s("\", \"pid\": ").i(pid);
    if (tid >= 0) o_.s(", \"tid\": ").i(tid);
    o_.s(", \"args\": {\"").s(key).s("\": ").s(value).s("}},\n");
  }

  void metadata() {
    meta("process_name", kTrainerPid, -1, "name", "\"trainer (python train.py)\"");
    const int r = rank_ < 0 ? 0 : rank_;
    meta("process_labels", kTrainerPid, -1, "labels",
         "\"rank " + std::to_string(r) + ",host demo-0" + std::to_string(r + 1) + "\"");
    meta("process_sort_index", kTrainerPid, -1, "sort_index", "0");
    meta("thread_name", kTrainerPid, kMainTid, "name", "\"python main\"");
    meta("thread_sort_index", kTrainerPid, kMainTid, "sort_index", "0");
    meta("thread_name", kTrainerPid, kLoaderTid, "name", "\"dataloader\"");
    meta("thread_sort_index", kTrainerPid, kLoaderTid, "sort_index", "1");
    meta("process_name", kGpuPid, -1, "name", "\"GPU 0 (Demo GPU)\"");
    meta("process_labels", kGpuPid, -1, "labels", "\"GPU\"");
    meta("process_sort_index", kGpuPid, -1, "sort_index", "10");
    meta("thread_name", kGpuPid, kComputeStream, "name", "\"stream 7 (compute)\"");
    meta("thread_name", kGpuPid, kNcclStream, "name", "\"stream 20 (nccl)\"");
  }

  void tick(int64_t lo_ns, int64_t hi_ns) { now_ += rng_.range(lo_ns, hi_ns); }

  void open(const char* cat, std::string name, std::string args = std::string()) {
    stack_.push_back(Open{cat, std::move(name), now_, std::move(args)});
  }

  // As Kineto does: a runtime call carries the External id of the operator it runs in.
  int64_t enclosing_external_id() const {
    for (auto it = stack_.rbegin(); it != stack_.rend(); ++it)
      if (it->external_id) return it->external_id;
    return 0;
  }

  // Slices are written when they close, so children precede their parents in the file, as in
  // real profiler output that records an op at its end.
  void close() {
    Open& op = stack_.back();
    tick(200, 900);
    complete(kTrainerPid, kMainTid, op.cat, op.name, op.start, now_ - op.start, op.args);
    stack_.pop_back();
  }

  void complete(int pid, int tid, const char* cat, const std::string& name, int64_t ts, int64_t dur,
                const std::string& args) {
    o_.s("{\"ph\": \"X\", \"cat\": \"")
        .s(cat)
        .s("\", \"name\": \"")
        .s(name)
        .s("\", \"pid\": ")
        .i(pid);
    o_.s(", \"tid\": ").i(tid).s(", \"ts\": ").us(ts).s(", \"dur\": ").us(dur);
    if (!args.empty()) o_.s(", \"args\": {").s(args).s("}");
    o_.s("},\n");
  }

  // An aten operator: a cpu_op with a fresh External id, which its runtime calls will carry.
  void open_op(std::string name, const char* dims) {
    open("cpu_op", std::move(name), op_args(dims));
    stack_.back().external_id = external_id_;
  }

  std::string op_args(const char* dims) {
    int64_t id = ++external_id_;
    std::string a = "\"External id\": " + std::to_string(id) +
                    ", \"Sequence number\": " + std::to_string(id / 3) + ", \"Fwd thread id\": 0";
    if (dims)
      a += std::string(", \"Input Dims\": ") + dims + ", \"Input type\": [\"float\", \"float\"]";
    return a;
  }

  // cudaLaunchKernel on the CPU, the kernel on a stream, and the ac2g flow between them.
  void launch(const char* kernel, int stream, int64_t kernel_ns) {
    int64_t corr = ++correlation_;
    const int64_t ext = enclosing_external_id();
    open("cuda_runtime", "cudaLaunchKernel",
         (ext ? "\"External id\": " + std::to_string(ext) + ", " : std::string()) +
             "\"cbid\": 211, \"correlation\": " + std::to_string(corr));
    flow('s', corr, kTrainerPid, kMainTid, now_);
    tick(2000, 6000);
    int64_t& free_at = stream == kNcclStream ? nccl_free_ : compute_free_;
    int64_t start = std::max(now_ + 3000, free_at + rng_.range(500, 2500));
    int64_t dur = kernel_ns + rng_.range(0, kernel_ns / 5);
    std::string args =
        collective_args(stream) +
        "\"queued\": 0, \"device\": 0, \"context\": 1, \"stream\": " + std::to_string(stream) +
        ", \"correlation\": " + std::to_string(corr) +
        ", \"registers per thread\": 128, \"shared memory\": 16384, \"grid\": [" +
        std::to_string(rng_.range(64, 4096)) + ", 1, 1], \"block\": [256, 1, 1]";
    complete(kGpuPid, stream, "kernel", kernel, start, dur, args);
    flow('f', corr, kGpuPid, stream, start);
    free_at = start + dur;
    close();
  }

  // An all-reduce's metadata as PyTorch records it on the kernel (distributed runs only).
  std::string collective_args(int stream) {
    if (rank_ < 0 || stream != kNcclStream) return {};
    return "\"Collective name\": \"allreduce\", \"In msg nelems\": 6553600, "
           "\"Out msg nelems\": 6553600, \"Group size\": " +
           std::to_string(world_) +
           ", \"dtype\": \"Float\", \"Process Group Name\": \"0\", \"Seq\": " +
           std::to_string(++seq_) + ", ";
  }

  void flow(char ph, int64_t id, int pid, int tid, int64_t ts) {
    o_.s("{\"ph\": \"").raw(&ph, 1).s("\", \"id\": ").i(id).s(", \"pid\": ").i(pid);
    o_.s(", \"tid\": ").i(tid).s(", \"ts\": ").us(ts);
    o_.s(ph == 'f' ? ", \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"},\n"
                   : ", \"cat\": \"ac2g\", \"name\": \"ac2g\"},\n");
  }

  // One aten op (optionally with a nested aten op) that launches one kernel.
  void op(const char* name, const char* inner, const char* kernel, int64_t kernel_ns,
          const char* dims) {
    open_op(name, dims);
    tick(1000, 4000);
    if (inner) {
      open_op(inner, dims);
      tick(500, 2000);
    }
    launch(kernel, kComputeStream, kernel_ns);
    if (inner) close();
    close();
  }

  void counter(int pid, const char* name, const std::string& args, int64_t ts) {
    o_.s("{\"ph\": \"C\", \"name\": \"").s(name).s("\", \"pid\": ").i(pid).s(", \"ts\": ").us(ts);
    o_.s(", \"args\": {").s(args).s("}},\n");
  }

  void memory_sample() {
    counter(kGpuPid, "GPU Memory",
            "\"Allocated (MB)\": " + std::to_string(allocated_mb_) +
                ", \"Reserved (MB)\": " + std::to_string(reserved_mb_),
            now_);
  }

  void forward_layer(int layer) {
    open("python_function", "nn.Module: TransformerLayer_" + std::to_string(layer));
    tick(2000, 5000);
    op("aten::layer_norm", "aten::native_layer_norm", "vectorized_layer_norm_kernel", 18000,
       "[[8, 512, 1024], [1024], [1024]]");
    op("aten::linear", "aten::addmm", "ampere_sgemm_128x64_tn", 95000,
       "[[4096, 1024], [1024, 3072]]");
    op("aten::scaled_dot_product_attention", "aten::_flash_attention_forward", "flash_fwd_kernel",
       120000, "[[8, 16, 512, 64], [8, 16, 512, 64], [8, 16, 512, 64]]");
    op("aten::linear", "aten::addmm", "ampere_sgemm_64x64_tn", 40000,
       "[[4096, 1024], [1024, 1024]]");
    op("aten::add", nullptr, "vectorized_elementwise_kernel<add>", 9000,
       "[[8, 512, 1024], [8, 512, 1024]]");
    op("aten::layer_norm", "aten::native_layer_norm", "vectorized_layer_norm_kernel", 18000,
       "[[8, 512, 1024], [1024], [1024]]");
    op("aten::linear", "aten::addmm", "ampere_sgemm_128x128_tn", 150000,
       "[[4096, 1024], [1024, 4096]]");
    op("aten::gelu", nullptr, "GeluCUDAKernelImpl", 30000, "[[8, 512, 4096]]");
    op("aten::linear", "aten::addmm", "ampere_sgemm_128x128_tn", 150000,
       "[[4096, 4096], [4096, 1024]]");
    op("aten::add", nullptr, "vectorized_elementwise_kernel<add>", 9000,
       "[[8, 512, 1024], [8, 512, 1024]]");
    allocated_mb_ += 96;
    reserved_mb_ = std::max(reserved_mb_, (allocated_mb_ + 511) / 512 * 512);
    memory_sample();
    close();
  }

  void backward_layer(int layer, int step) {
    static const char* kBackward[] = {"AddmmBackward0", "GeluBackward0",
                                      "AddmmBackward0", "NativeLayerNormBackward0",
                                      "AddBackward0",   "ScaledDotProductFlashAttentionBackward0",
                                      "AddmmBackward0", "NativeLayerNormBackward0"};
    for (const char* fn : kBackward) {
      open("cpu_op", std::string("autograd::engine::evaluate_function: ") + fn);
      tick(1000, 3000);
      open_op(fn, nullptr);
      tick(500, 1500);
      bool mm = std::strncmp(fn, "Addmm", 5) == 0;
      if (mm) {
        op("aten::mm", nullptr, "ampere_sgemm_128x64_nt", 110000, "[[4096, 1024], [1024, 4096]]");
        op("aten::mm", nullptr, "ampere_sgemm_128x64_tn", 110000, "[[1024, 4096], [4096, 1024]]");
      } else {
        op("aten::mul", nullptr, "vectorized_elementwise_kernel<mul>", 25000, "[[8, 512, 1024]]");
      }
      close();
      close();
    }
    allocated_mb_ -= 96;
    memory_sample();
    // Gradient buckets are all-reduced on the NCCL stream while backward continues.
    if (layer % 2 == 0) {
      open("user_annotation", "nccl:all_reduce",
           "\"bucket\": " + std::to_string(layer / 2) + ", \"step\": " + std::to_string(step));
      tick(3000, 8000);
      launch("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
             kNcclStream, 400000);
      close();
    }
  }

  void optimizer() {
    open("python_function", "Optimizer.step#AdamW.step");
    tick(5000, 10000);
    static const char* kForeach[] = {"aten::_foreach_mul_", "aten::_foreach_add_",
                                     "aten::_foreach_addcmul_", "aten::_foreach_sqrt",
                                     "aten::_foreach_addcdiv_"};
    for (const char* fe : kForeach)
      op(fe, nullptr, "multi_tensor_apply_kernel", 60000, "[[96], [96]]");
    close();
  }

  // The dataloader thread prepares the next batch with B/E pairs on its own clock.
  void loader_batch(int step) {
    auto be = [&](char ph, const char* name) {
      o_.s("{\"ph\": \"").raw(&ph, 1).s("\"");
      if (ph == 'B') o_.s(", \"cat\": \"dataloader\", \"name\": \"").s(name).s("\"");
      o_.s(", \"pid\": ")
          .i(kTrainerPid)
          .s(", \"tid\": ")
          .i(kLoaderTid)
          .s(", \"ts\": ")
          .us(loader_now_);
      if (ph == 'B' && std::strcmp(name, "DataLoader.__next__") == 0)
        o_.s(", \"args\": {\"batch\": ").i(step).s(", \"worker\": 0}");
      o_.s("},\n");
    };
    be('B', "DataLoader.__next__");
    loader_now_ += rng_.range(20000, 40000);
    for (int i = 0; i < 8; ++i) {
      be('B', "read_sample");
      loader_now_ += rng_.range(30000, 90000);
      be('B', "decode");
      loader_now_ += rng_.range(10000, 30000);
      be('E', nullptr);
      loader_now_ += rng_.range(2000, 6000);
      be('E', nullptr);
    }
    be('B', "collate");
    loader_now_ += rng_.range(40000, 80000);
    be('E', nullptr);
    loader_now_ += rng_.range(5000, 9000);
    be('E', nullptr);
  }

  void training_step(int step) {
    int64_t step_start = now_;
    loader_now_ = std::max(loader_now_ + 50000, step_start - 300000);
    loader_batch(step);
    o_.s("{\"ph\": \"i\", \"s\": \"t\", \"cat\": \"user_annotation\", \"name\": \"Iteration "
         "Start\", \"pid\": ")
        .i(kTrainerPid)
        .s(", \"tid\": ")
        .i(kMainTid)
        .s(", \"ts\": ")
        .us(now_)
        .s(", \"args\": {\"step\": ")
        .i(step)
        .s("}},\n");
    open("user_annotation", "ProfilerStep#" + std::to_string(step));
    tick(10000, 20000);
    open("python_function", "forward");
    for (int l = 0; l < kLayers; ++l) forward_layer(l);
    close();
    open("python_function", "loss.backward");
    for (int l = kLayers - 1; l >= 0; --l) backward_layer(l, step);
    close();
    optimizer();
    // Wait for the GPU, as a synchronising step would.
    open("cuda_runtime", "cudaDeviceSynchronize");
    now_ = std::max(now_, std::max(compute_free_, nccl_free_)) + 5000;
    close();
    close();
    // Utilisation over the step, sampled 8 times.
    for (int k = 0; k < 8; ++k) {
      int64_t t = step_start + (now_ - step_start) * k / 8;
      counter(kGpuPid, "GPU Utilization", "\"value\": " + std::to_string(rng_.range(55, 98)), t);
    }
    counter(kTrainerPid, "Host Memory",
            "\"RSS (MB)\": " + std::to_string(2048 + step % 7 * 16) + ", \"Pinned (MB)\": 512",
            now_);
    // A counter in bytes whose name does not say memory: the unit in the series name does.
    counter(kGpuPid, "KV Cache", "\"Used (MiB)\": " + std::to_string(640 + step % 5 * 96), now_);
    tick(50000, 150000);
  }

  Out& o_;
  Rng rng_;
  std::vector<Open> stack_;
  int64_t now_ = 0, loader_now_ = 0, compute_free_ = 0, nccl_free_ = 0;
  int rank_ = -1, world_ = 0;  // rank < 0: not a distributed run
  int64_t seq_ = 0;
  int64_t external_id_ = 0, correlation_ = 0;
  int64_t allocated_mb_ = 1024, reserved_mb_ = 2048;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 4) {
    std::fprintf(stderr, "usage: %s <out.json> [scale] [rank/world]\n", argv[0]);
    return 2;
  }
  int scale = argc >= 3 ? std::atoi(argv[2]) : 1;
  int rank = -1, world = 0;
  if (argc == 4 &&
      (std::sscanf(argv[3], "%d/%d", &rank, &world) != 2 || rank < 0 || world <= rank)) {
    std::fprintf(stderr, "rank/world must be like 3/8\n");
    return 2;
  }
  if (scale < 1 || scale > 100000) {
    std::fprintf(stderr, "scale must be between 1 and 100000\n");
    return 2;
  }
  FILE* f = std::fopen(argv[1], "wb");
  if (!f) {
    std::perror(argv[1]);
    return 1;
  }
  {
    Out out(f);
    Generator(&out, rank, world).run(6 * scale);
  }
  if (std::fclose(f) != 0) {
    std::perror(argv[1]);
    return 1;
  }
  return 0;
}
