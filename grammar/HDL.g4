// HDL: the hardware description language of MCL (thesis appendix A.1,
// DESIGN.md section 4). Block kinds, property names and flag keywords are
// parsed as identifiers and classified by the AST builder, so that a
// misspelt kind or property gets a precise message instead of a bare
// syntax error.
grammar HDL;

description
    : HARDWARE_DESCRIPTION name=ID ';'? specializes? block* EOF
    ;

specializes
    : SPECIALIZES parent=ID ';'
    ;

block
    : kind=ID name=ID '{' statement* '}'
    ;

statement
    : block                                          # nestedBlock
    | property=ID '=' expr unit? ';'                 # assignProperty
    | property=ID '(' expr (',' expr)* ')' ';'       # argProperty
    | qualifiedName ';'                              # bareStatement
    ;

expr
    : '(' op=('+' | '-' | '*' | '/' | '%') ')'       # operatorExpr
    | '(' expr ')'                                   # parenExpr
    | '-' expr                                       # negateExpr
    | expr op=('*' | '/' | '%') expr                 # mulExpr
    | expr op=('+' | '-') expr                       # addExpr
    | INT                                            # intExpr
    | STRING                                         # stringExpr
    | qualifiedName '[' '*' ']'                      # allUnitsExpr
    | qualifiedName                                  # nameExpr
    ;

// A unit such as B, kB, bits, cycles, MHz or GB/s; the builder checks it.
unit
    : base=ID ('/' per=ID)?
    ;

qualifiedName
    : ID ('.' ID)*
    ;

HARDWARE_DESCRIPTION : 'hardware_description' ;
SPECIALIZES          : 'specializes' ;

ID     : [a-zA-Z_] [a-zA-Z_0-9]* ;
INT    : [0-9]+ ;
STRING : '"' (~["\\\r\n] | '\\' .)* '"' ;

LINE_COMMENT  : '//' ~[\r\n]* -> skip ;
BLOCK_COMMENT : '/*' .*? '*/' -> skip ;
WS            : [ \t\r\n\f]+ -> skip ;

// Anything else becomes a token the parser rejects with a located error.
UNEXPECTED_CHAR : . ;
