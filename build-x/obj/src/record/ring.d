build-x/obj/src/record/ring.o: src/record/ring.c src/record/ring.h \
 include/hipvis/trace.h include/hipvis/api.h include/hipvis/api_cuda.h
src/record/ring.h:
include/hipvis/trace.h:
include/hipvis/api.h:
include/hipvis/api_cuda.h:
