build-x/obj/src/intercept/hip/gpu_procs.o: src/intercept/hip/gpu_procs.c \
 src/intercept/hip/gpu_procs.h
src/intercept/hip/gpu_procs.h:
