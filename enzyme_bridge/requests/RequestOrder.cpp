//===- enzyme_bridge/requests/RequestOrder.cpp - Which requests go first --===//
//
// See RequestOrder.h.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/requests/RequestOrder.h"

#include "enzyme_bridge/Diagnostics.h"
#include "enzyme_bridge/analysis/KnownFunctions.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

using namespace llvm;

namespace autodiff {

Function *RequestTarget(CallBase &cb) {
  unsigned first = cb.arg_size() > 0 && cb.paramHasAttr(0, Attribute::StructRet);
  if (cb.arg_size() <= first)
    return nullptr;
  return dyn_cast<Function>(cb.getArgOperand(first)->stripPointerCasts());
}

DenseMap<Function *, Function *> Reachable(Function *f) {
  DenseMap<Function *, Function *> reached;
  SmallVector<std::pair<Function *, Function *>, 16> work = {{f, nullptr}};
  while (!work.empty()) {
    auto [g, from] = work.pop_back_val();
    if (!g || g->isDeclaration() || !reached.try_emplace(g, from).second)
      continue;
    for (BasicBlock &bb : *g)
      for (Instruction &i : bb)
        if (auto *cb = dyn_cast<CallBase>(&i))
          work.push_back({CalledFunction(*cb), g});
  }
  return reached;
}

namespace {

/// ", which calls `h`, which calls `g`" for the calls that lead from the
/// root of `reach` to `to` (nothing when `to` is the root).
std::string CallChain(const DenseMap<Function *, Function *> &reach,
                      Function *to) {
  SmallVector<Function *, 4> path;
  for (Function *f = to; f && reach.lookup(f); f = reach.lookup(f))
    path.push_back(f);
  std::string s;
  for (Function *f : reverse(path))
    s += ", which calls `" + f->getName().str() + "`";
  return s;
}

/// The error for requests none of which can be replaced first because
/// each reaches another: one problem per cycle, at the cycle's first
/// request in module order.
absl::Status ReportRecursiveRequests(ArrayRef<CallBase *> calls) {
  std::vector<DenseMap<Function *, Function *>> reach;
  for (CallBase *cb : calls)
    reach.push_back(Reachable(RequestTarget(*cb)));
  auto Next = [&](size_t i) -> std::optional<size_t> {
    for (size_t j = 0; j < calls.size(); ++j)
      if (reach[i].count(calls[j]->getFunction()))
        return j;
    return std::nullopt;
  };
  std::vector<absl::Status> problems;
  SmallVector<bool, 16> covered(calls.size(), false);
  for (size_t start = 0; start < calls.size(); ++start) {
    if (covered[start])
      continue;
    SmallVector<size_t, 8> walk;
    DenseMap<size_t, size_t> seenAt;
    std::optional<size_t> i = start;
    while (i && seenAt.try_emplace(*i, walk.size()).second) {
      walk.push_back(*i);
      i = Next(*i);
    }
    bool known = any_of(walk, [&](size_t k) { return covered[k]; });
    for (size_t k : walk)
      covered[k] = true;
    if (!i || known)
      continue;
    // The cycle, from its first request in module order.
    SmallVector<size_t, 8> cycle(walk.begin() + seenAt[*i], walk.end());
    std::rotate(cycle.begin(), min_element(cycle), cycle.end());
    CallBase &first = *calls[cycle.front()];
    Function *target = RequestTarget(first);
    std::string chain = "`" + first.getFunction()->getName().str() +
                        "` asks for the derivative of ";
    if (cycle.size() == 1 && target == first.getFunction())
      chain += "itself";
    else
      chain += "`" + target->getName().str() + "`";
    for (size_t k = 0; k < cycle.size(); ++k) {
      CallBase &next = *calls[cycle[(k + 1) % cycle.size()]];
      chain += CallChain(reach[cycle[k]], next.getFunction());
      if (k + 1 < cycle.size())
        chain += ", which asks for the derivative of `" +
                 RequestTarget(next)->getName().str() + "`";
    }
    problems.push_back(ErrorAt(
        absl::StatusCode::kUnimplemented, first,
        "requests for derivatives reach each other recursively: " + chain +
            "; this is not supported (a request may only differentiate "
            "code whose own requests do not lead back to it)"));
  }
  if (problems.empty())
    return absl::InternalError("derivative requests could not be ordered");
  return JoinProblems(problems);
}

} // namespace

absl::StatusOr<RequestRound> NextRequestRound(ArrayRef<CallBase *> calls) {
  SmallVector<CallBase *, 16> ready;
  for (CallBase *cb : calls) {
    DenseMap<Function *, Function *> reach = Reachable(RequestTarget(*cb));
    if (none_of(calls, [&](CallBase *other) {
          return reach.count(other->getFunction());
        }))
      ready.push_back(cb);
  }
  if (ready.empty())
    return ReportRecursiveRequests(calls);
  RequestRound round;
  SmallPtrSet<CallBase *, 16> isReady(ready.begin(), ready.end());
  SmallVector<DenseMap<Function *, Function *>, 4> later;
  for (CallBase *cb : calls)
    if (!isReady.count(cb))
      later.push_back(Reachable(RequestTarget(*cb)));
  for (CallBase *cb : ready)
    (any_of(later,
            [&](const DenseMap<Function *, Function *> &reach) {
              return reach.count(cb->getFunction()) > 0;
            })
         ? round.nested
         : round.outer)
        .push_back(cb);
  return round;
}

} // namespace autodiff
