build-x/obj/src/codeobj/fatbin.o: src/codeobj/fatbin.c \
 src/codeobj/internal.h src/codeobj/codeobj.h
src/codeobj/internal.h:
src/codeobj/codeobj.h:
