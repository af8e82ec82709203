build-x/obj/src/format/reorder.o: src/format/reorder.c \
 src/format/reorder.h include/hipvis/trace.h include/hipvis/api.h \
 include/hipvis/api_cuda.h
src/format/reorder.h:
include/hipvis/trace.h:
include/hipvis/api.h:
include/hipvis/api_cuda.h:
