/*
 * pycontainer.h -- `CContainerBase`, the base class of the Python Array, List, Map and Dict,
 * and the framework-tensor context of a call.
 *
 * A call that receives a framework tensor (one whose type advertises a DLPack exchange API,
 * such as torch.Tensor) notes that API in its tpy_temps; its Tensor result then comes back
 * as a tensor of that framework, and a container result remembers the API, so that the
 * Tensors read out of it later (each element access is a call with the container as
 * argument) come back the same way.
 */
#ifndef TPY_PYCONTAINER_H_
#define TPY_PYCONTAINER_H_

#include "tpy.h"
#include "convert.h"
#include "object.h"

typedef struct {
  TpyObject base;
  const DLPackExchangeAPI* dlpack_api; /* borrowed: the API lives as long as the process */
} TpyContainer;

extern PyTypeObject TpyContainer_Type;

/* (tpy_from_any_steal_api and tpy_note_container_arg, defined in pycontainer.c, are
 * declared in convert.h, which the call path includes.) */

int tpy_pycontainer_init(PyObject* module);

#endif /* TPY_PYCONTAINER_H_ */
