//===- codegen/SetAside.h - Functions post-optimization leaves alone -*- C++ -*-===//
//
// Post-optimization optimizes what differentiation made: the functions it
// created or changed and every function those reach (so derivatives can
// inline the primal code they call). The module's other functions are set
// aside while it runs: kept as bitcode, left as declarations in the module,
// and linked back afterwards unchanged. Re-optimizing them would spend
// time and memory on code the user's compiler (or --pre-opt) already
// optimized: on a module of thousands of functions reached by one request,
// they are a third of the IR post-optimization would otherwise hold.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_CODEGEN_SETASIDE_H
#define AUTODIFF_CODEGEN_SETASIDE_H

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Comdat.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/GlobalValue.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace autodiff {

/// What the module held right before differentiation: the functions with a
/// body (by identity and name) and those that make a request.
struct BeforeDifferentiation {
  llvm::DenseSet<const llvm::Function *> defined;
  llvm::StringSet<> defined_names;
  llvm::DenseSet<const llvm::Function *> requesters;
  unsigned requests = 0; ///< `__enzyme_*` request calls
};

BeforeDifferentiation SnapshotBeforeDifferentiation(const llvm::Module &m);

/// A global whose linkage, comdat or name was changed while set aside.
struct ChangedGlobal {
  std::string name; // its name while set aside
  llvm::GlobalValue::LinkageTypes linkage;
  bool had_comdat = false;
  std::string comdat;
  llvm::Comdat::SelectionKind comdat_kind = llvm::Comdat::Any;
  bool unnamed = false;
};

/// The debug metadata of one set-aside body, instruction by instruction:
/// linked back from bitcode, the body holds copies of it, which are
/// replaced by these originals (what else refers to the function's
/// subprogram, a static local or an inlined copy, keeps referring to the
/// one the function has).
struct BodyDebugInfo {
  struct Record {
    llvm::MDNode *variable = nullptr; // or the label
    llvm::MDNode *expression = nullptr;
    llvm::MDNode *address_expression = nullptr;
    llvm::MDNode *assign_id = nullptr;
    llvm::DebugLoc loc;
  };
  struct Inst {
    unsigned index = 0;
    llvm::DebugLoc loc;
    /// All of them: loop metadata holds debug locations too.
    llvm::SmallVector<std::pair<unsigned, llvm::MDNode *>, 1> attached;
    llvm::SmallVector<Record, 1> records;
  };
  llvm::SmallVector<std::pair<unsigned, llvm::MDNode *>, 2> function;
  std::vector<Inst> insts;
  unsigned count = 0;
};

/// The set-aside functions' bodies and what was changed to set them aside.
class SetAsideFunctions {
public:
  llvm::SmallVector<char, 0> bitcode;
  llvm::StringSet<> names; // of the set-aside functions
  std::vector<ChangedGlobal> changed;
  std::vector<std::string> function_order; // every function, by name
  unsigned compile_units = 0;               // in llvm.dbg.cu
  llvm::StringSet<> anchors; // added to llvm.compiler.used meanwhile
  llvm::StringMap<BodyDebugInfo> debug; // with debug info only
};

/// Sets aside, in `m`, the functions with a body that differentiation
/// neither created nor changed and that nothing it created or changed
/// reaches. Null when there are none, or when the module has ifuncs (then
/// the whole module is post-optimized). The
/// globals the set-aside code refers to are made external for the time
/// being, so post-optimization treats them as used from elsewhere.
absl::StatusOr<std::unique_ptr<SetAsideFunctions>>
SetAsideUnchangedFunctions(llvm::Module &m, const BeforeDifferentiation &before);

/// Links the set-aside functions back into `m` and restores the linkage,
/// comdats and names changed by SetAsideUnchangedFunctions.
absl::Status RestoreSetAside(llvm::Module &m,
                             std::unique_ptr<SetAsideFunctions> aside);

} // namespace autodiff

#endif // AUTODIFF_CODEGEN_SETASIDE_H
