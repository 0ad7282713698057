// Loops with jumps: `while`, `break`, `continue`, and a kernel's `return` inside a loop or a
// run-time `if` (see kBreakFlag in IRGen.h). A loop that can be left early is an scf.while
// whose condition also tests the flags; `continue` skips the rest of the body through the
// guards emitStmts puts after it.

#include "compiler/frontend/IRGen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace tile::frontend {

// Whether `stmts` hold a statement of `kind` for this loop (nested loops have their own
// break/continue; a return leaves every loop).
bool containsJump(const StmtList &stmts, StmtKind kind) {
  for (const StmtPtr &s : stmts) {
    if (s->kind() == kind)
      return true;
    if (auto *i = s->dynCast<IfStmt>()) {
      for (const IfBranch &b : i->branches)
        if (containsJump(b.body, kind))
          return true;
      if (containsJump(i->orelse, kind))
        return true;
    }
    if (kind == StmtKind::Return) {
      if (auto *f = s->dynCast<ForStmt>(); f && containsJump(f->body, kind))
        return true;
      if (auto *w = s->dynCast<WhileStmt>(); w && containsJump(w->body, kind))
        return true;
    }
  }
  return false;
}

bool KernelIRGen::loopNeedsWhile(const StmtList &body) {
  return containsJump(body, StmtKind::Break) || (frames_.size() == 1 && containsJump(body, StmtKind::Return));
}

KValue KernelIRGen::pendingJump(SourceRange where) {
  Value acc;
  for (const char *flag : {kBreakFlag, kContinueFlag, kReturnFlag}) {
    auto it = scope_->find(flag);
    if (it == scope_->end())
      continue;
    const KValue &v = it->second;
    if (v.isError())
      return v;
    if (v.isBool()) {
      if (v.boolValue())
        return v;
      continue;
    }
    acc = acc ? Value(arith::OrIOp::create(builder_, loc(where), acc, v.value())) : v.value();
  }
  return acc ? KValue::runtime(acc) : KValue::boolean(false);
}

std::map<std::string, KValue> KernelIRGen::hideLoopFlags() {
  std::map<std::string, KValue> saved;
  for (const char *flag : {kBreakFlag, kContinueFlag, kLoopCounter})
    if (auto it = scope_->find(flag); it != scope_->end()) {
      saved[flag] = it->second;
      scope_->erase(it);
    }
  return saved;
}

void KernelIRGen::restoreLoopFlags(const std::map<std::string, KValue> &saved) {
  for (const char *flag : {kBreakFlag, kContinueFlag, kLoopCounter})
    scope_->erase(flag);
  for (auto &[name, value] : saved)
    (*scope_)[name] = value;
}

void KernelIRGen::emitBreakOrContinue(const Stmt &s) {
  bool isBreak = s.isa<BreakStmt>();
  if (loopDepth_ == 0) {
    error(s.range, std::string("'") + (isBreak ? "break" : "continue") + "' outside a loop");
    return;
  }
  (*scope_)[isBreak ? kBreakFlag : kContinueFlag] = KValue::boolean(true);
}

void KernelIRGen::collectCarriedValues(const std::set<std::string> &assigned, Location l,
                                       std::vector<std::string> &carried, SmallVectorImpl<Value> &inits) {
  for (const std::string &name : assigned) {
    auto it = scope_->find(name);
    if (it == scope_->end() || it->second.isError())
      continue;
    const KValue &v = it->second;
    Value init;
    if (v.isRuntime() && !v.isArray())
      init = v.value();
    else if (v.isConstNumber())
      init = constant(v, defaultType(v), l);
    else
      continue; // compile-time values rebound in the body are checked by the callers
    carried.push_back(name);
    inits.push_back(init);
  }
}

void KernelIRGen::emitWhileLoop(SourceRange range, const StmtList &bodyStmts, const std::set<std::string> &extra,
                                const std::function<Value()> &condition, const std::function<void()> &body) {
  Location l = loc(range);
  std::set<std::string> assigned = extra;
  collectAssignedNames(bodyStmts, assigned);
  std::vector<std::string> carried;
  SmallVector<Value> inits;
  collectCarriedValues(assigned, l, carried, inits);
  SmallVector<Type> types;
  for (Value v : inits)
    types.push_back(v.getType());
  SmallVector<Location> locs(types.size(), l);
  auto loop = scf::WhileOp::create(builder_, l, types, inits);
  Scope saved = *scope_;
  bool ok = true;
  {
    OpBuilder::InsertionGuard guard(builder_);
    Block *before = builder_.createBlock(&loop.getBefore(), {}, types, locs);
    for (size_t i = 0; i < carried.size(); ++i)
      (*scope_)[carried[i]] = KValue::runtime(before->getArgument(i));
    ++regionDepth_;
    Value c = condition();
    --regionDepth_;
    if (!c) {
      ok = false;
      c = constant(KValue::boolean(false), builder_.getI1Type(), l);
    }
    scf::ConditionOp::create(builder_, l, c, before->getArguments());
  }
  *scope_ = saved;
  {
    OpBuilder::InsertionGuard guard(builder_);
    Block *after = builder_.createBlock(&loop.getAfter(), {}, types, locs);
    for (size_t i = 0; i < carried.size(); ++i)
      (*scope_)[carried[i]] = KValue::runtime(after->getArgument(i));
    ++regionDepth_;
    ++loopDepth_;
    body();
    --loopDepth_;
    --regionDepth_;
    SmallVector<Value> yields;
    for (size_t i = 0; i < carried.size(); ++i) {
      const KValue &v = (*scope_)[carried[i]];
      if (v.isConstNumber() && !constantFits(v, types[i], range)) {
        ok = false;
        continue;
      }
      Value y = v.isConstNumber()                                    ? constant(v, types[i], l)
                : (v.isRuntime() && v.value().getType() == types[i]) ? v.value()
                                                                     : Value();
      if (!y) {
        if (!v.isError())
          error(range, "'" + carried[i] + "' changes type inside the loop: " + describe(KValue::runtime(inits[i])) +
                           " before the loop, " + describe(v) +
                           " at the end of the body; convert it with astype() so both agree");
        ok = false;
        continue;
      }
      yields.push_back(y);
    }
    for (const std::string &name : assigned) {
      auto b = saved.find(name);
      if (b == saved.end() || std::find(carried.begin(), carried.end(), name) != carried.end())
        continue;
      KValue a = (*scope_)[name];
      if (!a.isError() && !(a.kind() == b->second.kind() && a.isConstNumber() == b->second.isConstNumber() &&
                            describe(a) == describe(b->second))) {
        error(range, "'" + name + "' holds " + describe(b->second) +
                         " before the loop and is reassigned inside it; only scalars and tiles can be loop-carried");
        ok = false;
      }
    }
    scf::YieldOp::create(builder_, l, ok ? ValueRange(yields) : ValueRange(after->getArguments()));
  }
  Scope result = saved;
  for (size_t i = 0; i < carried.size(); ++i)
    result[carried[i]] = ok ? KValue::runtime(loop.getResult(i)) : KValue::error();
  for (const std::string &name : assigned)
    if (!saved.count(name)) {
      result.erase(name);
      if (undefined_ && name[0] != '%')
        (*undefined_)[name] = "it is assigned only inside the loop body";
    }
  *scope_ = std::move(result);
}

void KernelIRGen::emitWhile(const WhileStmt &s) {
  bool hasBreak = containsJump(s.body, StmtKind::Break);
  bool hasContinue = containsJump(s.body, StmtKind::Continue);
  auto outer = hideLoopFlags();
  std::set<std::string> extra;
  if (hasBreak) {
    (*scope_)[kBreakFlag] = KValue::boolean(false);
    extra.insert(kBreakFlag);
  }
  auto condition = [&]() -> Value {
    Location l = loc(s.test->range);
    KValue stop = pendingJump(s.test->range); // break or return in the previous iteration
    if (stop.isError())
      return {};
    auto evalTest = [&]() -> Value {
      KValue c = eval(*s.test);
      if (c.isError())
        return {};
      if (auto truth = constTruth(c))
        return constant(KValue::boolean(*truth), builder_.getI1Type(), l);
      return runtimeCondition({c, s.test->range});
    };
    if (stop.isBool())
      return stop.boolValue() ? constant(KValue::boolean(false), builder_.getI1Type(), l) : evalTest();
    // Python evaluates the condition only if the loop goes on (it may have side effects).
    auto ifOp = scf::IfOp::create(builder_, l, TypeRange{builder_.getI1Type()}, stop.value(), true);
    {
      OpBuilder::InsertionGuard guard(builder_);
      builder_.setInsertionPointToStart(ifOp.thenBlock());
      scf::YieldOp::create(builder_, l, constant(KValue::boolean(false), builder_.getI1Type(), l));
      builder_.setInsertionPointToStart(ifOp.elseBlock());
      Value c = evalTest();
      if (!c)
        return {};
      scf::YieldOp::create(builder_, l, c);
    }
    return ifOp.getResult(0);
  };
  emitWhileLoop(s.range, s.body, extra, condition, [&] {
    if (hasContinue)
      (*scope_)[kContinueFlag] = KValue::boolean(false);
    emitBlock(s.body);
  });
  restoreLoopFlags(outer);
}

void KernelIRGen::emitForAsWhile(const ForStmt &s, const std::string &target, Value lo, Value hi, Value step,
                                 Value reverseStart, int64_t reverseStep) {
  bool hasBreak = containsJump(s.body, StmtKind::Break);
  bool hasContinue = containsJump(s.body, StmtKind::Continue);
  bool targetExisted = scope_->count(target) != 0;
  auto outer = hideLoopFlags();
  std::set<std::string> extra = {kLoopCounter};
  (*scope_)[kLoopCounter] = KValue::runtime(lo);
  if (hasBreak) {
    (*scope_)[kBreakFlag] = KValue::boolean(false);
    extra.insert(kBreakFlag);
  }
  Location l = loc(s.range);
  auto condition = [&]() -> Value {
    Value iv = (*scope_)[kLoopCounter].value();
    Value c = arith::CmpIOp::create(builder_, l, arith::CmpIPredicate::slt, iv, hi);
    KValue stop = pendingJump(s.range);
    if (stop.isError())
      return {};
    if (stop.isBool())
      return stop.boolValue() ? constant(KValue::boolean(false), builder_.getI1Type(), l) : c;
    Value go =
        arith::XOrIOp::create(builder_, l, stop.value(), constant(KValue::boolean(true), builder_.getI1Type(), l));
    return arith::AndIOp::create(builder_, l, c, go);
  };
  emitWhileLoop(s.range, s.body, extra, condition, [&] {
    Value iv = (*scope_)[kLoopCounter].value();
    // Advance first, so that a `continue` does not skip it.
    (*scope_)[kLoopCounter] = KValue::runtime(arith::AddIOp::create(builder_, l, iv, step));
    if (reverseStart) {
      Value k = arith::ConstantOp::create(builder_, l, builder_.getIntegerAttr(iv.getType(), reverseStep));
      iv = arith::SubIOp::create(builder_, l, reverseStart, arith::MulIOp::create(builder_, l, iv, k));
    }
    (*scope_)[target] = KValue::runtime(iv);
    if (hasContinue)
      (*scope_)[kContinueFlag] = KValue::boolean(false);
    emitBlock(s.body);
    scope_->erase(kContinueFlag);
  });
  restoreLoopFlags(outer);
  if (!targetExisted) {
    scope_->erase(target);
    if (undefined_)
      (*undefined_)[target] = "it is the loop variable and exists only inside the loop body";
  }
}

std::string KernelIRGen::listBoundingRange(const CallExpr &call) {
  for (const ExprPtr &arg : call.args) {
    const auto *len = arg->dynCast<CallExpr>();
    const auto *lenName = len ? len->func->dynCast<NameExpr>() : nullptr;
    const auto *list =
        lenName && lenName->id == "len" && len->args.size() == 1 ? len->args[0]->dynCast<NameExpr>() : nullptr;
    if (!list || !scope_->count(list->id))
      continue;
    const KValue &value = scope_->at(list->id);
    // (An empty list unrolls to nothing.)
    if (value.isTuple() &&
        (value.elements().empty() || llvm::any_of(value.elements(), [](const KValue &v) { return v.isRuntime(); })))
      return list->id;
  }
  return "";
}

// ct.static_iter unrolls at compile time: bounds keep a typo (static_iter(range(10**9))), or
// nested unrolled loops, from emitting a billion copies of a body.
static constexpr size_t kMaxStaticIterations = 4096;
static constexpr size_t kMaxStaticBodies = 65536; // per kernel, nested ones included

void KernelIRGen::emitStaticFor(const ForStmt &s, const CallExpr &call) {
  if (call.args.size() != 1 || !call.keywords.empty()) {
    error(call.range, "ct.static_iter() takes one iterable (a tuple, or a range() of constants)");
    return;
  }
  emitUnrolledFor(s, *call.args[0], "ct.static_iter()");
}

void KernelIRGen::emitUnrolledFor(const ForStmt &s, const Expr &iterable, const std::string &what) {
  for (StmtKind jump : {StmtKind::Break, StmtKind::Continue})
    if (containsJump(s.body, jump)) {
      error(s.range, std::string(jump == StmtKind::Break ? "break" : "continue") + " is not supported in a " + what +
                         " loop (its body is unrolled at compile time)");
      return;
    }
  std::vector<KValue> items;
  const auto *rangeCall = iterable.dynCast<CallExpr>();
  const auto *rangeName = rangeCall ? rangeCall->func->dynCast<NameExpr>() : nullptr;
  if (rangeName && rangeName->id == "range") {
    // range(stop), range(start, stop[, step]) of compile-time integers.
    if (rangeCall->args.empty() || rangeCall->args.size() > 3 || !rangeCall->keywords.empty()) {
      error(rangeCall->range, "range() takes 1 to 3 positional arguments");
      return;
    }
    std::vector<int64_t> bounds;
    for (const ExprPtr &a : rangeCall->args) {
      KValue v = eval(*a);
      if (v.isError())
        return;
      if (!v.isInt()) {
        error(a->range, (what == "ct.static_iter()" ? std::string("ct.static_iter(range(...))") : what) +
                            " needs bounds known at compile time, got " + describe(v));
        return;
      }
      bounds.push_back(v.intValue());
    }
    int64_t start = bounds.size() == 1 ? 0 : bounds[0], stop = bounds.size() == 1 ? bounds[0] : bounds[1];
    int64_t step = bounds.size() == 3 ? bounds[2] : 1;
    if (step == 0) {
      error(rangeCall->args[2]->range, "range() step must not be zero");
      return;
    }
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) {
      if (items.size() == kMaxStaticIterations)
        break;
      items.push_back(KValue::integer(i));
      if ((step > 0 && i > INT64_MAX - step) || (step < 0 && i < INT64_MIN - step))
        break;
    }
    const __int128 span = step > 0 ? __int128(stop) - start : __int128(start) - stop;
    const __int128 count = span > 0 ? (span - 1) / (step > 0 ? __int128(step) : -__int128(step)) + 1 : 0;
    if (count > __int128(kMaxStaticIterations)) {
      error(iterable.range, what + " unrolls at most " + std::to_string(kMaxStaticIterations) +
                                " iterations; this range has " + std::to_string((unsigned long long)count));
      return;
    }
  } else {
    KValue v = eval(iterable);
    if (v.isError())
      return;
    if (!v.isTuple()) {
      error(iterable.range, what + " needs a tuple or a range() known at compile time, got " + describe(v));
      return;
    }
    items = v.elements();
    if (items.size() > kMaxStaticIterations) {
      error(iterable.range, what + " unrolls at most " + std::to_string(kMaxStaticIterations) +
                                " iterations; this tuple has " + std::to_string(items.size()));
      return;
    }
  }
  for (const KValue &item : items) {
    if (diags_.stopped() || (!frames_.empty() && frames_.back().returned))
      return;
    if (++staticIterations_ > kMaxStaticBodies) {
      error(s.range, what + " loops unroll more than " + std::to_string(kMaxStaticBodies) +
                         " bodies in this kernel (nested ones multiply, with every other unrolled loop)");
      return;
    }
    assign(*s.target, item, iterable.range);
    emitBlock(s.body);
  }
}

} // namespace tile::frontend
