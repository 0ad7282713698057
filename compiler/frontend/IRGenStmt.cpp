// Statements: assignment, loops, conditionals, returns from inlined helpers, asserts.

#include "compiler/frontend/IRGen.h"

#include "dialect/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace tile::frontend {

void KernelIRGen::emitStmts(const StmtList &stmts, size_t from) {
  for (size_t i = from; i < stmts.size(); ++i) {
    if (diags_.stopped() || (!frames_.empty() && frames_.back().returned))
      return;
    // After a break, continue or return taken at run time, the rest runs only if none was.
    KValue jumped = pendingJump(stmts[i]->range);
    if (jumped.isError())
      return;
    if (jumped.isBool()) {
      if (jumped.boolValue())
        return;
      emitStmt(*stmts[i]);
      continue;
    }
    Location l = loc(stmts[i]->range);
    Value go =
        arith::XOrIOp::create(builder_, l, jumped.value(), constant(KValue::boolean(true), builder_.getI1Type(), l));
    emitRuntimeChoice(
        go, stmts[i]->range,
        [&] {
          for (const char *flag : {kBreakFlag, kContinueFlag, kReturnFlag})
            if (auto it = scope_->find(flag); it != scope_->end() && it->second.isRuntime())
              it->second = KValue::boolean(false);
          emitStmts(stmts, i);
        },
        [] {});
    return;
  }
}

void KernelIRGen::emitStmt(const Stmt &s) {
  switch (s.kind()) {
  case StmtKind::Assign:
    return emitAssign(s.as<AssignStmt>());
  case StmtKind::AugAssign:
    return emitAugAssign(s.as<AugAssignStmt>());
  case StmtKind::AnnAssign: {
    const auto &a = s.as<AnnAssignStmt>();
    if (a.value)
      assign(*a.target, eval(*a.value), a.value->range);
    return;
  }
  case StmtKind::Expr: {
    const Expr &e = *s.as<ExprStmt>().value;
    if (e.isa<StrLitExpr>()) // docstring
      return;
    (void)eval(e);
    return;
  }
  case StmtKind::For:
    return emitFor(s.as<ForStmt>());
  case StmtKind::If:
    return emitIf(s.as<IfStmt>());
  case StmtKind::Return:
    return emitReturn(s.as<ReturnStmt>());
  case StmtKind::Pass:
    return;
  case StmtKind::Assert:
    return emitAssert(s.as<AssertStmt>());
  case StmtKind::While:
    return emitWhile(s.as<WhileStmt>());
  case StmtKind::Break:
  case StmtKind::Continue:
    return emitBreakOrContinue(s);
  case StmtKind::FunctionDef:
    error(s.as<FunctionDefStmt>().nameRange, "nested function definitions are not supported in kernels");
    return;
  case StmtKind::Import:
  case StmtKind::ImportFrom:
    error(s.range, "imports are only allowed at module level");
    return;
  }
}

void KernelIRGen::assign(const Expr &target, const KValue &value, SourceRange valueRange) {
  if (auto *name = target.dynCast<NameExpr>()) {
    (*scope_)[name->id] = value;
    if (undefined_)
      undefined_->erase(name->id);
    return;
  }
  const ExprList *elts = nullptr;
  if (auto *t = target.dynCast<TupleExpr>())
    elts = &t->elts;
  else if (auto *l = target.dynCast<ListExpr>())
    elts = &l->elts;
  if (elts) {
    if (value.isError()) {
      for (const ExprPtr &e : *elts)
        assign(*e, KValue::error(), valueRange);
      return;
    }
    if (!value.isTuple()) {
      error(valueRange, "cannot unpack " + describe(value) + " into " + std::to_string(elts->size()) + " names");
      return;
    }
    if (value.elements().size() != elts->size()) {
      error(valueRange, "cannot unpack a tuple of " + std::to_string(value.elements().size()) + " values into " +
                            std::to_string(elts->size()) + " names");
      return;
    }
    for (size_t i = 0; i < elts->size(); ++i)
      assign(*(*elts)[i], value.elements()[i], valueRange);
    return;
  }
  if (target.isa<SubscriptExpr>())
    error(target.range, "tiles are immutable: assignment to an element or slice is not supported");
  else if (target.isa<AttributeExpr>())
    error(target.range, "assignment to an attribute is not supported in kernels");
  else if (!target.isa<ErrorExpr>())
    error(target.range, "cannot assign to this expression");
}

void KernelIRGen::emitAssign(const AssignStmt &s) {
  KValue value = eval(*s.value);
  for (const ExprPtr &target : s.targets)
    assign(*target, value, s.value->range);
}

void KernelIRGen::emitAugAssign(const AugAssignStmt &s) {
  KValue current = eval(*s.target);
  KValue rhs = eval(*s.value);
  KValue result = binary(s.op, {current, s.target->range}, {rhs, s.value->range}, s.opRange);
  assign(*s.target, result, s.range);
}

// True if `a` and `b` are the same value: compile-time values compare by value (tuples element
// by element), run-time values by identity.
static bool sameValue(const KValue &a, const KValue &b) {
  if (a.kind() != b.kind())
    return false;
  switch (a.kind()) {
  case KValue::Kind::Error:
  case KValue::Kind::None:
    return true;
  case KValue::Kind::Int:
  case KValue::Kind::Bool:
  case KValue::Kind::Padding:
    return a.intValue() == b.intValue();
  case KValue::Kind::Float:
    return a.floatValue() == b.floatValue();
  case KValue::Kind::Str:
  case KValue::Kind::Namespace:
  case KValue::Kind::ConstantAnnotation:
    return a.name() == b.name();
  case KValue::Kind::Builtin:
    if (a.name() != b.name() || !a.self() != !b.self())
      return false;
    return !a.self() || sameValue(*a.self(), *b.self());
  case KValue::Kind::DType:
    return a.dtypeValue() == b.dtypeValue();
  case KValue::Kind::Function:
    return a.functionDef() == b.functionDef();
  case KValue::Kind::Runtime:
    return a.value() == b.value();
  case KValue::Kind::TiledView:
    if (a.intValue() != b.intValue() || !sameValue(*a.self(), *b.self()))
      return false;
    [[fallthrough]];
  case KValue::Kind::Tuple:
  case KValue::Kind::Dict:
    if (a.elements().size() != b.elements().size() || (a.isDict() && a.keys() != b.keys()))
      return false;
    for (size_t i = 0; i < a.elements().size(); ++i)
      if (!sameValue(a.elements()[i], b.elements()[i]))
        return false;
    return true;
  }
  return false;
}

// Names assigned anywhere in `stmts` (loop carried values are among them).
void KernelIRGen::collectAssignedNames(const StmtList &stmts, std::set<std::string> &names) {
  std::function<void(const Expr &)> targets = [&](const Expr &t) {
    if (auto *n = t.dynCast<NameExpr>())
      names.insert(n->id);
    else if (auto *tup = t.dynCast<TupleExpr>())
      for (const ExprPtr &e : tup->elts)
        targets(*e);
    else if (auto *l = t.dynCast<ListExpr>())
      for (const ExprPtr &e : l->elts)
        targets(*e);
  };
  for (const StmtPtr &s : stmts) {
    if (auto *a = s->dynCast<AssignStmt>())
      for (const ExprPtr &t : a->targets)
        targets(*t);
    else if (auto *a = s->dynCast<AugAssignStmt>())
      targets(*a->target);
    else if (auto *a = s->dynCast<AnnAssignStmt>())
      targets(*a->target);
    else if (auto *f = s->dynCast<ForStmt>()) {
      targets(*f->target);
      collectAssignedNames(f->body, names);
    } else if (auto *w = s->dynCast<WhileStmt>()) {
      collectAssignedNames(w->body, names);
    } else if (s->isa<ReturnStmt>()) {
      names.insert(kReturnFlag);
    } else if (auto *i = s->dynCast<IfStmt>()) {
      for (const IfBranch &b : i->branches)
        collectAssignedNames(b.body, names);
      collectAssignedNames(i->orelse, names);
    }
  }
}

//===----------------------------------------------------------------------===//
// for i in range(...)
//===----------------------------------------------------------------------===//

void KernelIRGen::emitFor(const ForStmt &s) {
  const auto *call = s.iter->dynCast<CallExpr>();
  const auto *fname = call ? call->func->dynCast<NameExpr>() : nullptr;
  bool isRange = fname && fname->id == "range";
  if (auto *attr = call ? call->func->dynCast<AttributeExpr>() : nullptr) {
    isRange = attr->attr == "range";
    if (attr->attr == "static_iter") {
      KValue callee = eval(*call->func);
      if (callee.isError())
        return;
      if (callee.kind() == KValue::Kind::Builtin && callee.name() == "ct.static_iter")
        return emitStaticFor(s, *call);
    }
  }
  if (!isRange) {
    error(s.iter->range, "for loops must iterate over range(...) or ct.static_iter(...)");
    return;
  }
  if (!call->keywords.empty()) {
    error(call->keywords[0].range, "range() takes no keyword arguments");
    return;
  }
  // `for g in range(len(As))` over a list of arrays: unrolled, so that As[g] is known.
  if (std::string list = fname ? listBoundingRange(*call) : ""; !list.empty())
    return emitUnrolledFor(s, *s.iter, "range(len(" + list + "))");
  if (call->args.empty() || call->args.size() > 3) {
    error(call->range, "range() takes 1 to 3 arguments, got " + std::to_string(call->args.size()));
    return;
  }
  const auto *targetName = s.target->dynCast<NameExpr>();
  if (!targetName) {
    error(s.target->range, "the loop variable of a range() loop must be a single name");
    return;
  }
  std::vector<Arg> bounds;
  for (const ExprPtr &a : call->args)
    bounds.push_back(scalarOf({eval(*a), a->range}));
  for (const Arg &b : bounds) {
    if (b.value.isError())
      return;
    bool ok = b.value.isInt() || b.value.isBool() || (b.value.isScalar() && isa<IntegerType>(b.value.elementType()));
    if (!ok) {
      error(b.range, "range() bounds must be integers, got " + describe(b.value));
      return;
    }
  }
  Arg start = bounds.size() == 1 ? Arg{KValue::integer(0), call->range} : bounds[0];
  Arg stop = bounds.size() == 1 ? bounds[0] : bounds[1];
  int64_t step = 1;
  std::optional<Arg> runtimeStep; // persistent kernels: range(ct.bid(0), n, ct.num_blocks(0))
  if (bounds.size() == 3 && bounds[2].value.isRuntime()) {
    runtimeStep = bounds[2];
  } else if (bounds.size() == 3) {
    step = bounds[2].value.intValue();
    if (step == 0) {
      error(bounds[2].range, "range() step must not be zero");
      return;
    }
    if (step == INT64_MIN) {
      error(bounds[2].range, "range() step " + std::to_string(step) + " is out of range");
      return;
    }
  }
  // The induction variable is i32 unless a bound is i64, or a constant bound or the step needs
  // 64 bits — including the last increment: i + step must not wrap past the bound.
  Type ivType = builder_.getI32Type();
  const int64_t stepMagnitude = step < 0 ? -step : step; // step != INT64_MIN: checked above
  auto needs64 = [&](int64_t v) {
    int64_t up, down;
    return __builtin_add_overflow(v, stepMagnitude, &up) || __builtin_sub_overflow(v, stepMagnitude, &down) ||
           !llvm::isInt<32>(up) || !llvm::isInt<32>(down);
  };
  if (needs64(0))
    ivType = builder_.getI64Type();
  if (runtimeStep && runtimeStep->value.elementType().isInteger(64))
    ivType = builder_.getI64Type();
  for (const Arg &b : {start, stop}) {
    if (b.value.isRuntime() && b.value.elementType().isInteger(64))
      ivType = builder_.getI64Type();
    if (b.value.isInt() && needs64(b.value.intValue()))
      ivType = builder_.getI64Type();
  }
  Location l = loc(s.range);
  Value lo = coerce(start, ivType, {}, start.range);
  Value hi = coerce(stop, ivType, {}, stop.range);
  if (!lo || !hi)
    return;
  Value stepValue, reverseStart;
  bool reversed = step < 0;
  if (reversed) {
    // range(a, b, -s) runs i = a - k*s for k in [0, max(0, ceil((a - b) / s))).
    Value absStep = arith::ConstantOp::create(builder_, l, builder_.getIntegerAttr(ivType, -step));
    Value zero = arith::ConstantOp::create(builder_, l, builder_.getIntegerAttr(ivType, 0));
    Value count = arith::CeilDivSIOp::create(builder_, l, arith::SubIOp::create(builder_, l, lo, hi), absStep);
    reverseStart = lo;
    lo = zero;
    hi = arith::MaxSIOp::create(builder_, l, count, zero);
    stepValue = arith::ConstantOp::create(builder_, l, builder_.getIntegerAttr(ivType, 1));
  } else if (runtimeStep) {
    // A run-time step must be positive (scf.for counts up); checked at run time.
    stepValue = coerce(*runtimeStep, ivType, {}, runtimeStep->range);
    if (!stepValue)
      return;
    Value zero = arith::ConstantOp::create(builder_, l, builder_.getIntegerAttr(ivType, 0));
    Value positive = arith::CmpIOp::create(builder_, l, arith::CmpIPredicate::sgt, stepValue, zero);
    auto check = mlir::tile::AssertOp::create(builder_, loc(runtimeStep->range), positive,
                                              builder_.getStringAttr("range() step must be positive"));
    if (!verifyBuilt(check, runtimeStep->range, "range() step check"))
      return;
  } else {
    stepValue = arith::ConstantOp::create(builder_, l, builder_.getIntegerAttr(ivType, step));
  }

  if (loopNeedsWhile(s.body)) {
    emitForAsWhile(s, targetName->id, lo, hi, stepValue, reversed ? reverseStart : Value(), reversed ? -step : 0);
    return;
  }
  auto outerFlags = hideLoopFlags();
  bool hasContinue = containsJump(s.body, StmtKind::Continue);

  // Loop-carried values: names assigned in the body that already hold a value.
  std::set<std::string> assigned;
  collectAssignedNames(s.body, assigned);
  assigned.erase(targetName->id);
  std::vector<std::string> carried;
  SmallVector<Value> inits;
  collectCarriedValues(assigned, l, carried, inits); // compile-time rebinds are checked below

  auto forOp = scf::ForOp::create(builder_, l, lo, hi, stepValue, inits);
  Block *body = forOp.getBody();
  // Without iter_args the builder adds an empty scf.yield; ours is created after the body.
  if (!body->empty())
    body->back().erase();
  OpBuilder::InsertionGuard guard(builder_);
  builder_.setInsertionPointToStart(body);
  Scope saved = *scope_;
  for (size_t i = 0; i < carried.size(); ++i)
    (*scope_)[carried[i]] = KValue::runtime(body->getArgument(1 + i));
  Value iv = forOp.getInductionVar();
  if (reversed) {
    Value scaled = arith::MulIOp::create(
        builder_, l, iv, arith::ConstantOp::create(builder_, l, builder_.getIntegerAttr(ivType, -step)));
    iv = arith::SubIOp::create(builder_, l, reverseStart, scaled);
  }
  (*scope_)[targetName->id] = KValue::runtime(iv);
  if (hasContinue)
    (*scope_)[kContinueFlag] = KValue::boolean(false);
  ++regionDepth_;
  ++loopDepth_;
  emitBlock(s.body);
  --loopDepth_;
  --regionDepth_;
  scope_->erase(kContinueFlag);

  SmallVector<Value> yields;
  bool ok = true;
  for (size_t i = 0; i < carried.size(); ++i) {
    KValue v = (*scope_)[carried[i]];
    Type want = inits[i].getType();
    if (v.isError()) {
      ok = false;
      continue;
    }
    Value y;
    if (v.isConstNumber() && !constantFits(v, want, s.range)) {
      ok = false;
      continue;
    }
    if (v.isConstNumber())
      y = constant(v, want, l);
    else if (v.isRuntime() && v.value().getType() == want)
      y = v.value();
    if (!y) {
      // Both sides spelled alike ("tile<16xf32>", "scalar i32"), not one as an MLIR type.
      error(s.range, "'" + carried[i] + "' changes type inside the loop: " + describe(KValue::runtime(inits[i])) +
                         " before the loop, " + describe(v) +
                         " at the end of the body; convert it with astype() so both agree");
      ok = false;
      continue;
    }
    yields.push_back(y);
  }
  // Compile-time values rebound inside the loop cannot change per iteration.
  for (const std::string &name : assigned) {
    auto before = saved.find(name);
    if (before == saved.end() || std::find(carried.begin(), carried.end(), name) != carried.end() || name[0] == '%')
      continue;
    KValue after = (*scope_)[name];
    if (!sameValue(after, before->second) && !after.isError()) {
      error(s.range, "'" + name + "' holds " + describe(before->second) +
                         " before the loop and is reassigned inside it; only scalars and tiles can be loop-carried");
      ok = false;
    }
  }
  if (ok)
    scf::YieldOp::create(builder_, l, yields);
  else
    scf::YieldOp::create(builder_, l, inits);

  // After the loop: carried names take the loop's results; names first bound in the body are
  // not visible (they may not have run).
  Scope after = saved;
  for (size_t i = 0; i < carried.size(); ++i)
    after[carried[i]] = ok ? KValue::runtime(forOp.getResult(i)) : KValue::error();
  for (const std::string &name : assigned)
    if (!saved.count(name)) {
      after.erase(name);
      if (undefined_ && name[0] != '%')
        (*undefined_)[name] = "it is assigned only inside the loop body";
    }
  if (!saved.count(targetName->id) && undefined_)
    (*undefined_)[targetName->id] = "it is the loop variable and exists only inside the loop body";
  *scope_ = std::move(after);
  restoreLoopFlags(outerFlags);
}

//===----------------------------------------------------------------------===//
// if / elif / else
//===----------------------------------------------------------------------===//

void KernelIRGen::emitIf(const IfStmt &s) {
  for (size_t i = 0; i < s.branches.size(); ++i) {
    const IfBranch &b = s.branches[i];
    KValue cond = eval(*b.test);
    if (cond.isError())
      return;
    if (auto truth = constTruth(cond)) {
      if (*truth) {
        emitBlock(b.body);
        return;
      }
      continue;
    }
    Value c = runtimeCondition({cond, b.test->range});
    if (!c)
      return;
    emitRuntimeIf(s, i, c);
    return;
  }
  emitBlock(s.orelse);
}

// Emits branch `index` (whose condition is the runtime `cond`) and everything after it as an
// scf.if; variables assigned in the arms are merged through the if's results.
void KernelIRGen::emitRuntimeIf(const IfStmt &s, size_t index, Value cond) {
  const IfBranch &b = s.branches[index];
  auto thenArm = [&] { emitBlock(b.body); };
  auto elseArm = [&] {
    if (index + 1 < s.branches.size()) {
      // elif: the rest of the chain is the else arm.
      const IfBranch &next = s.branches[index + 1];
      KValue c = eval(*next.test);
      if (c.isError())
        return;
      if (auto truth = constTruth(c)) {
        if (*truth) {
          emitBlock(next.body);
          return;
        }
        // Skip this arm: continue with the rest as if it were absent.
        for (size_t j = index + 2; j < s.branches.size(); ++j) {
          KValue cj = eval(*s.branches[j].test);
          if (cj.isError())
            return;
          auto tj = constTruth(cj);
          if (!tj) {
            if (Value rc = runtimeCondition({cj, s.branches[j].test->range}))
              emitRuntimeIf(s, j, rc);
            return;
          }
          if (*tj) {
            emitBlock(s.branches[j].body);
            return;
          }
        }
        emitBlock(s.orelse);
        return;
      }
      if (Value rc = runtimeCondition({c, next.test->range}))
        emitRuntimeIf(s, index + 1, rc);
      return;
    }
    emitBlock(s.orelse);
  };
  emitRuntimeChoice(cond, b.keywordRange, thenArm, elseArm);
}

void KernelIRGen::emitRuntimeChoice(Value cond, SourceRange keyword, const std::function<void()> &thenArm,
                                    const std::function<void()> &elseArm) {
  struct {
    SourceRange keywordRange;
  } b{keyword};
  Location l = loc(keyword);
  auto ifOp = scf::IfOp::create(builder_, l, TypeRange{}, cond, /*withElseRegion=*/true);
  Scope before = *scope_;

  auto runArm = [&](Block *block, auto &&emitArm) {
    OpBuilder::InsertionGuard guard(builder_);
    builder_.setInsertionPoint(block->getTerminator());
    *scope_ = before;
    ++regionDepth_;
    emitArm();
    --regionDepth_;
    return *scope_;
  };
  Scope thenScope = runArm(ifOp.thenBlock(), thenArm);
  Scope elseScope = runArm(ifOp.elseBlock(), elseArm);

  // Merge: a name bound (differently) in either arm and bound in both becomes a result.
  std::vector<std::string> merged;
  SmallVector<Value> thenValues, elseValues;
  Scope result = before;
  std::set<std::string> names;
  for (auto &[n, _] : thenScope)
    names.insert(n);
  for (auto &[n, _] : elseScope)
    names.insert(n);
  for (const std::string &name : names) {
    auto t = thenScope.find(name), e = elseScope.find(name);
    bool inThen = t != thenScope.end(), inElse = e != elseScope.end();
    auto unchanged = [&](const KValue &v) {
      auto it = before.find(name);
      return it != before.end() && sameValue(it->second, v);
    };
    if (inThen && inElse && unchanged(t->second) && unchanged(e->second))
      continue;
    if (!inThen || !inElse) {
      result.erase(name);
      if (undefined_)
        (*undefined_)[name] = "it is assigned only in some branches of the 'if' at line " +
                              std::to_string(diags_.sources().decompose(b.keywordRange.begin).line);
      continue;
    }
    const KValue &tv = t->second, &ev = e->second;
    if (tv.isError() || ev.isError()) {
      result[name] = KValue::error();
      continue;
    }
    // Pick the common type: a runtime side's type, else the default for constants.
    Type type;
    if (tv.isRuntime() && !tv.isArray())
      type = tv.value().getType();
    else if (ev.isRuntime() && !ev.isArray())
      type = ev.value().getType();
    else if (tv.isConstNumber() && ev.isConstNumber())
      type = defaultType(tv.isFloat() ? tv : ev);
    if (!type || (tv.isRuntime() && tv.value().getType() != type) || (ev.isRuntime() && ev.value().getType() != type) ||
        !(tv.isRuntime() || tv.isConstNumber()) || !(ev.isRuntime() || ev.isConstNumber())) {
      if (tv.kind() == ev.kind() && !tv.isRuntime() && !tv.isConstNumber()) {
        // Compile-time values (tuples, dtypes, ...) cannot follow a run-time choice: the name is
        // unusable after the 'if', as if it were assigned in one branch only.
        result.erase(name);
        if (undefined_)
          (*undefined_)[name] = "it is given different compile-time values (" + describe(tv) + ", " + describe(ev) +
                                ") in the branches of the run-time 'if' at line " +
                                std::to_string(diags_.sources().decompose(b.keywordRange.begin).line);
        continue;
      }
      error(b.keywordRange, "'" + name + "' is " + describe(tv) + " in one branch and " + describe(ev) +
                                " in the other; both branches must give it the same type");
      result[name] = KValue::error();
      continue;
    }
    if (!constantFits(tv, type, b.keywordRange) || !constantFits(ev, type, b.keywordRange)) {
      result[name] = KValue::error();
      continue;
    }
    OpBuilder::InsertionGuard guard(builder_);
    builder_.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    thenValues.push_back(tv.isRuntime() ? tv.value() : constant(tv, type, l));
    builder_.setInsertionPoint(ifOp.elseBlock()->getTerminator());
    elseValues.push_back(ev.isRuntime() ? ev.value() : constant(ev, type, l));
    merged.push_back(name);
  }

  if (!merged.empty()) {
    // Rebuild the scf.if with results, moving the arms' bodies over.
    SmallVector<Type> types;
    for (Value v : thenValues)
      types.push_back(v.getType());
    auto newIf = scf::IfOp::create(builder_, l, types, cond, /*withElseRegion=*/true);
    newIf.getThenRegion().takeBody(ifOp.getThenRegion());
    newIf.getElseRegion().takeBody(ifOp.getElseRegion());
    newIf.thenBlock()->getTerminator()->setOperands(thenValues);
    newIf.elseBlock()->getTerminator()->setOperands(elseValues);
    ifOp.erase();
    for (size_t i = 0; i < merged.size(); ++i)
      result[merged[i]] = KValue::runtime(newIf.getResult(i));
  }
  *scope_ = std::move(result);
}

//===----------------------------------------------------------------------===//
// return, assert
//===----------------------------------------------------------------------===//

void KernelIRGen::emitReturn(const ReturnStmt &s) {
  FunctionFrame &frame = frames_.back();
  if (frames_.size() == 1) {
    if (s.value && !s.value->isa<NoneLitExpr>())
      error(s.value->range, "kernels return nothing; write results with ct.store");
    if (regionDepth_ > 0) {
      // Inside a loop or a run-time 'if': a flag that the enclosing loops and the rest of the
      // kernel test (emitStmts, loop conditions).
      (*scope_)[kReturnFlag] = KValue::boolean(true);
      return;
    }
    frame.returned = true;
    return;
  }
  if (regionDepth_ > 0) {
    error(s.range, "'return' inside a loop or a run-time 'if' is not supported in @ct.function helpers; "
                   "assign the result to a variable and return it at the end");
    frame.returned = true;
    return;
  }
  // Evaluate before touching the frame: a helper call in the value grows frames_, which would
  // leave `frame` dangling.
  KValue value = s.value ? eval(*s.value) : KValue::none();
  frames_.back().returnValue = std::move(value);
  frames_.back().returned = true;
}

void KernelIRGen::emitAssert(const AssertStmt &s) {
  KValue cond = eval(*s.test);
  if (cond.isError())
    return;
  std::string message = "assertion failed";
  if (s.msg) {
    KValue m = eval(*s.msg);
    if (m.isStr())
      message = m.name();
    else if (!m.isError()) {
      error(s.msg->range, "the assert message must be a string literal");
      return;
    }
  }
  if (auto truth = constTruth(cond)) {
    if (!*truth)
      error(s.test->range, "assertion failed at compile time: " + message);
    return;
  }
  Value c;
  if (cond.isTile() && cond.elementType().isInteger(1))
    c = cond.value();
  else
    c = runtimeCondition({cond, s.test->range});
  if (!c)
    return;
  auto op = mlir::tile::AssertOp::create(builder_, loc(s.range), c, builder_.getStringAttr(message));
  verifyBuilt(op, s.range, "assert");
}

} // namespace tile::frontend
