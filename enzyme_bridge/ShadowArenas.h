//===- enzyme_bridge/ShadowArenas.h - Shadows of constant memory ----------===//
//
// Shadow memory both modes make the same way: the arenas below, and
// shadows of Numba's MemInfos.
//
// A constant pointer can end up next to active data (Rust's iterator
// structs hold a constant slice's pointers beside an active closure; a C
// struct holds an active value beside a pointer to a constant table). Its
// shadow must exist there: it points into the middle of a large mapping
// made once per process (1 GiB, MAP_NORESERVE: only the pages touched cost
// memory), so any offset within +-512 MiB is valid.
//  - Forward mode's zero arena is read-only: tangent loads through it read
//    zero, and a write (the memory was not constant after all) faults
//    instead of giving a wrong derivative.
//  - Reverse mode's sink arena is writable: the adjoints of loads through
//    it are added there and dropped. A store of active data through it
//    means active data went into memory declared constant; the reverse
//    sweep checks for that (InArena) and stops with a message.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_SHADOWARENAS_H
#define AUTODIFF_ENZYME_BRIDGE_SHADOWARENAS_H

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

namespace autodiff {

enum class ArenaKind { Zero, Sink };

/// `ptr __autodiff_{zero,sink}_shadow()`: the middle of the arena (null if
/// it cannot be mapped), defined once per module.
llvm::Function *ArenaShadowHelper(llvm::Module &m, ArenaKind kind);

/// Whether `shadow` points into the arena (false while it is not mapped).
llvm::Value *InArena(llvm::IRBuilderBase &b, llvm::Value *shadow,
                     ArenaKind kind);

/// A shadow of the Numba MemInfo that `alloc` (an NRT_MemInfo_alloc*
/// call) makes: the same call, its data buffer zeroed. Both modes make
/// their MemInfo shadows this way.
llvm::CallInst *CreateZeroedMemInfo(llvm::IRBuilderBase &b,
                                    llvm::CallBase &alloc,
                                    const llvm::Twine &name);

} // namespace autodiff

#endif
