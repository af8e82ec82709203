build-x/obj/src/record/shm_transport.o: src/record/shm_transport.c \
 src/record/shm_transport.h include/hipvis/trace.h include/hipvis/api.h \
 include/hipvis/api_cuda.h src/record/collector.h src/record/clock.h \
 src/record/ring.h src/record/shm_layout.h
src/record/shm_transport.h:
include/hipvis/trace.h:
include/hipvis/api.h:
include/hipvis/api_cuda.h:
src/record/collector.h:
src/record/clock.h:
src/record/ring.h:
src/record/shm_layout.h:
