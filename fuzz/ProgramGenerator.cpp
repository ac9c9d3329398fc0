//===- fuzz/ProgramGenerator.cpp - Random differentiable modules ----------===//
#include "fuzz/ProgramGenerator.h"

#include <string>
#include <vector>

namespace autodiff::fuzz {

namespace {

/// Builds one function body: a pool of double values and fresh names.
class Body {
public:
  /// `prefix`: of fresh names (`%v`), distinct per body of a function.
  Body(FuzzedDataProvider &in, std::string &out, std::string prefix = "%v")
      : in_(in), out_(out), prefix_(std::move(prefix)) {}

  void Add(const std::string &value) { pool_.push_back(value); }
  std::string Pick() {
    return pool_[in_.ConsumeIntegralInRange<size_t>(0, pool_.size() - 1)];
  }
  std::string Fresh() { return prefix_ + std::to_string(next_++); }
  void Line(const std::string &text) { out_ += "  " + text + "\n"; }

  /// One random operation on values of the pool; its result joins it.
  std::string Operation(int helpers) {
    std::string a = Pick(), b = Pick(), r = Fresh();
    switch (in_.ConsumeIntegralInRange(0, 11)) {
    case 0:
      Line(r + " = fadd double " + a + ", " + b);
      break;
    case 1:
      Line(r + " = fsub double " + a + ", " + b);
      break;
    case 2:
    case 3:
      Line(r + " = fmul double " + a + ", " + b);
      break;
    case 4: { // a / (1 + b * b)
      std::string sq = Fresh(), den = Fresh();
      Line(sq + " = fmul double " + b + ", " + b);
      Line(den + " = fadd double " + sq + ", 1.0");
      Line(r + " = fdiv double " + a + ", " + den);
      break;
    }
    case 5:
      Line(r + " = call double @llvm.sin.f64(double " + a + ")");
      break;
    case 6: { // exp of a bounded value
      std::string t = Fresh();
      Line(t + " = call double @llvm.cos.f64(double " + a + ")");
      Line(r + " = call double @llvm.exp.f64(double " + t + ")");
      break;
    }
    case 7: { // sqrt(|a| + 1)
      std::string t = Fresh(), u = Fresh();
      Line(t + " = call double @llvm.fabs.f64(double " + a + ")");
      Line(u + " = fadd double " + t + ", 1.0");
      Line(r + " = call double @llvm.sqrt.f64(double " + u + ")");
      break;
    }
    case 8:
      Line(r + " = call double @llvm.maxnum.f64(double " + a + ", double " +
           b + ")");
      break;
    case 9: { // a branch-free select on data
      std::string c = Fresh();
      Line(c + " = fcmp ogt double " + a + ", " + b);
      Line(r + " = select i1 " + c + ", double " + a + ", double " + b);
      break;
    }
    case 10: { // through float and back
      std::string t = Fresh();
      Line(t + " = fptrunc double " + a + " to float");
      Line(r + " = fpext float " + t + " to double");
      break;
    }
    default:
      if (helpers == 0) {
        Line(r + " = fneg double " + a);
      } else {
        int h = in_.ConsumeIntegralInRange(0, helpers - 1);
        Line(r + " = call double @helper" + std::to_string(h) + "(double " +
             a + ", double " + b + ")");
      }
      break;
    }
    Add(r);
    return r;
  }

private:
  FuzzedDataProvider &in_;
  std::string &out_;
  std::string prefix_;
  std::vector<std::string> pool_;
  int next_ = 0;
};

void Helper(FuzzedDataProvider &in, std::string &out, int index) {
  bool noinline = in.ConsumeBool();
  out += "define internal double @helper" + std::to_string(index) +
         "(double %a, double %b)" + (noinline ? " noinline" : "") +
         " {\nentry:\n";
  Body body(in, out);
  body.Add("%a");
  body.Add("%b");
  std::string last = "%a";
  int ops = in.ConsumeIntegralInRange(1, 4);
  for (int k = 0; k < ops; ++k)
    last = body.Operation(index); // Only earlier helpers: no recursion.
  out += "  ret double " + last + "\n}\n\n";
}

/// The loop of `@f`: for i in [0, n): reads x[i], computes, writes y[i]
/// (or x[i] in place), accumulates; maybe leaves early, maybe branches.
void Loop(FuzzedDataProvider &in, std::string &out, Body &outer,
          const std::string &start, int helpers, std::string &acc_out) {
  bool inPlace = in.ConsumeBool(), early = in.ConsumeBool(),
       branch = in.ConsumeBool();
  out += "  br label %loop\n\nloop:\n";
  out += "  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]\n";
  out += "  %acc = phi double [ " + start + ", %entry ], [ %acc.next, %latch ]\n";
  out += "  %xi.p = getelementptr inbounds double, ptr %x, i64 %i\n";
  out += "  %xi = load double, ptr %xi.p\n";
  Body body(in, out, "%l");
  body.Add("%xi");
  body.Add("%acc");
  body.Add(outer.Pick());
  std::string v = "%xi";
  int ops = in.ConsumeIntegralInRange(1, 5);
  for (int k = 0; k < ops; ++k)
    v = body.Operation(helpers);
  std::string w = v;
  if (branch) {
    out += "  %c = fcmp ogt double %xi, 0.5\n  br i1 %c, label %then, label "
           "%join\n\nthen:\n";
    out += "  %tv = fmul double " + v + ", %xi\n  br label %join\n\njoin:\n";
    out += "  %w = phi double [ %tv, %then ], [ " + v + ", %loop ]\n";
    w = "%w";
  }
  std::string dst = inPlace ? "%xi.p" : "%yi.p";
  if (!inPlace)
    out += "  %yi.p = getelementptr inbounds double, ptr %y, i64 %i\n";
  out += "  store double " + w + ", ptr " + dst + "\n";
  out += "  %acc.next = fadd double %acc, " + w + "\n";
  std::string current = branch ? "%join" : "%loop";
  if (early)
    out += "  %big = fcmp ogt double %acc.next, 1.0e3\n"
           "  br i1 %big, label %exit, label %latch\n\nlatch:\n";
  else
    out += "  br label %latch\n\nlatch:\n";
  out += "  %i.next = add nuw nsw i64 %i, 1\n"
         "  %more = icmp slt i64 %i.next, %n\n"
         "  br i1 %more, label %loop, label %exit\n\nexit:\n";
  out += std::string("  %acc.out = phi double ") +
         (early ? "[ %acc.next, " + current + " ], " : "") +
         "[ %acc.next, %latch ]\n";
  acc_out = "%acc.out";
}

} // namespace

std::string GenerateProgram(FuzzedDataProvider &in) {
  std::string out =
      "declare double @llvm.sin.f64(double)\n"
      "declare double @llvm.cos.f64(double)\n"
      "declare double @llvm.exp.f64(double)\n"
      "declare double @llvm.fabs.f64(double)\n"
      "declare double @llvm.sqrt.f64(double)\n"
      "declare double @llvm.maxnum.f64(double, double)\n"
      "@enzyme_dup = external global i32\n"
      "@enzyme_const = external global i32\n"
      "@enzyme_out = external global i32\n"
      "@enzyme_width = external global i32\n"
      "declare double @__enzyme_autodiff(...)\n"
      "declare double @__enzyme_fwddiff(...)\n"
      "declare ptr @__enzyme_augmentfwd(...)\n"
      "declare void @__enzyme_reverse(...)\n\n";
  int helpers = in.ConsumeIntegralInRange(0, 2);
  for (int h = 0; h < helpers; ++h)
    Helper(in, out, h);

  bool returnsVoid = in.ConsumeBool();
  out += std::string("define ") + (returnsVoid ? "void" : "double") +
         " @f(ptr %x, ptr %y, i64 %n, double %s) {\nentry:\n";
  Body body(in, out);
  body.Add("%s");
  out += "  %x0 = load double, ptr %x\n";
  body.Add("%x0");
  if (in.ConsumeBool()) { // A stack array written and read back.
    out += "  %slot = alloca [2 x double]\n"
           "  store double %x0, ptr %slot\n"
           "  %slot1 = getelementptr inbounds double, ptr %slot, i64 1\n"
           "  store double %s, ptr %slot1\n"
           "  %back = load double, ptr %slot1\n";
    body.Add("%back");
  }
  std::string result = "%x0";
  int ops = in.ConsumeIntegralInRange(0, 6);
  for (int k = 0; k < ops; ++k)
    result = body.Operation(helpers);
  if (in.ConsumeBool()) {
    std::string acc;
    Loop(in, out, body, result, helpers, acc);
    result = acc;
  }
  if (returnsVoid)
    out += "  store double " + result + ", ptr %y\n  ret void\n}\n\n";
  else
    out += "  ret double " + result + "\n}\n\n";

  // The requests.
  out += "define void @caller(ptr %x, ptr %dx, ptr %dx2, ptr %y, ptr %dy, "
         "ptr %dy2, i64 %n, double %s, double %ds) {\nentry:\n";
  auto ptrArgs = [&](bool dupX, bool dupY, bool width2) {
    std::string a = dupX ? "ptr @enzyme_dup, ptr %x, ptr %dx" +
                               std::string(width2 ? ", ptr %dx2" : "")
                         : "ptr @enzyme_const, ptr %x";
    a += dupY ? ", ptr @enzyme_dup, ptr %y, ptr %dy" +
                    std::string(width2 ? ", ptr %dy2" : "")
              : ", ptr @enzyme_const, ptr %y";
    return a + ", i64 %n";
  };
  int requests = in.ConsumeIntegralInRange(1, 3);
  for (int k = 0; k < requests; ++k) {
    std::string r = "%r" + std::to_string(k);
    bool dupX = in.ConsumeBool(), dupY = in.ConsumeBool();
    switch (in.ConsumeIntegralInRange(0, 3)) {
    case 0: { // Reverse, combined.
      bool activeS = in.ConsumeBool();
      out += "  " + std::string(activeS ? r + " = call double" : "call void") +
             " (...) @__enzyme_autodiff(ptr @f, " + ptrArgs(dupX, dupY, false) +
             (activeS ? ", ptr @enzyme_out, double %s" : ", ptr @enzyme_const, double %s") +
             ")\n";
      break;
    }
    case 1: // Forward.
      out += "  " + std::string(returnsVoid ? "call void" : r + " = call double") +
             " (...) @__enzyme_fwddiff(ptr @f, " + ptrArgs(dupX, dupY, false) +
             ", ptr @enzyme_dup, double %s, double %ds)\n";
      break;
    case 2: // Forward, width 2.
      out += "  " + std::string(returnsVoid ? "call void" : r + " = call { double, double }") +
             " (...) @__enzyme_fwddiff(ptr @f, ptr @enzyme_width, i64 2, " +
             ptrArgs(dupX, dupY, true) +
             ", ptr @enzyme_dup, double %s, double %ds, double %ds)\n";
      break;
    default: // Split reverse, for a void function.
      if (!returnsVoid)
        break;
      out += "  " + r + " = call ptr (...) @__enzyme_augmentfwd(ptr @f, " +
             ptrArgs(dupX, dupY, false) + ", ptr @enzyme_const, double %s)\n";
      out += "  call void (...) @__enzyme_reverse(ptr @f, " +
             ptrArgs(dupX, dupY, false) + ", ptr @enzyme_const, double %s, ptr " +
             r + ")\n";
      break;
    }
  }
  out += "  ret void\n}\n";
  return out;
}

} // namespace autodiff::fuzz
