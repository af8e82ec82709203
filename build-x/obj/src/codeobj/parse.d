build-x/obj/src/codeobj/parse.o: src/codeobj/parse.c src/codeobj/elf.h \
 src/codeobj/codeobj.h src/codeobj/internal.h
src/codeobj/elf.h:
src/codeobj/codeobj.h:
src/codeobj/internal.h:
