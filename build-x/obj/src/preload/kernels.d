build-x/obj/src/preload/kernels.o: src/preload/kernels.c \
 src/preload/kernels.h include/hipvis/trace.h include/hipvis/api.h \
 include/hipvis/api_cuda.h src/preload/hot.h
src/preload/kernels.h:
include/hipvis/trace.h:
include/hipvis/api.h:
include/hipvis/api_cuda.h:
src/preload/hot.h:
