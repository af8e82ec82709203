build-x/obj/src/codeobj/index.o: src/codeobj/index.c \
 src/codeobj/internal.h src/codeobj/codeobj.h
src/codeobj/internal.h:
src/codeobj/codeobj.h:
