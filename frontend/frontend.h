// The embedded C++ front end of Strata: include this one header.
//
// Write Strata programs as ordinary C++ over typed handles -- `Exp<T>` for
// scalar expressions, `Acc<Array<Dim<R>, E>>` for arrays -- with operators,
// named primitives and collective operations taking C++ lambdas. The handles
// build the same IR as the text form (core/ir.h); sharing recovery turns C++
// variables used twice into alet/let; `compile(engine, fn)` traces and compiles
// once, and the result runs many times. See docs/tutorial.md.
#pragma once

#include "frontend/collective.h"
#include "frontend/everyday.h"
#include "frontend/handles.h"
#include "frontend/run.h"
#include "frontend/scalar_ops.h"
#include "frontend/sharing.h"
#include "frontend/types.h"
