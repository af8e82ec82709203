build-x/obj/src/codeobj/ccob.o: src/codeobj/ccob.c src/codeobj/internal.h \
 src/codeobj/codeobj.h
src/codeobj/internal.h:
src/codeobj/codeobj.h:
