// MCPL: the kernel language of MCL (thesis appendix A.2, DESIGN.md section 5),
// the dialect of the original distribution included: packages, exports,
// imports, constants, record types, memory-space modifiers, tiled arrays,
// `as` views, swap, `^` as power. Memory spaces, par_groups and hardware
// values are plain identifiers here; the checker gives them meaning.
grammar MCPL;

module_
    : packageDecl? MODULE name=ID ';' exportDecl? importDecl* (topDecl | function)* EOF
    ;

packageDecl : PACKAGE qualifiedName ';' ;
exportDecl  : EXPORT ID (',' ID)* ';' ;
importDecl  : IMPORT qualifiedName ';' ;
qualifiedName : ID ('.' ID)* ;

topDecl
    : CONST type_ name=ID '=' expr ';'               # constDecl
    | TYPE name=ID '{' (decl ';')* '}'                # recordDecl
    | decl ';'                                        # globalDecl
    ;

function
    : hwd=ID type_ name=ID '(' (decl (',' decl)*)? ')' block
    ;

decl
    : modifier* basicDecl (AS basicDecl)* ('=' expr)?
    ;
modifier  : CONST | ID ;
basicDecl : type_ name=ID ;

type_
    : (VOID | INT | FLOAT | DOUBLE | BYTE | BOOL | ID) dimensions*
    ;
dimensions : '[' expr (',' expr)* ']' ;

block : '{' statement* '}' ;

statement
    : block                                                   # blockStmt
    | decl ';'                                                # declStmt
    | update ';'                                              # updateStmt
    | var '<=>' var ';'                                       # swapStmt
    | call ';'                                                # callStmt
    | RETURN expr? ';'                                        # returnStmt
    | IF '(' expr ')' statement (ELSE statement)?             # ifStmt
    | FOR '(' decl ';' expr ';' update ')' statement          # forStmt
    | FOREACH '(' INT index=ID IN expr group=ID ')' statement # foreachStmt
    | BARRIER '(' space=ID ')' ';'                            # barrierStmt
    | var AS basicDecl (AS basicDecl)* ';'                    # asStmt
    ;

update
    : var op=('=' | '+=' | '-=' | '*=' | '/=' | '%=' | '<<=' | '>>=') expr  # assignUpdate
    | var op=('++' | '--')                                                # stepUpdate
    ;

var     : varPart ('.' varPart)* ;
varPart : ID dimensions* ;
call    : ID '(' (expr (',' expr)*)? ')' ;

expr
    : '(' expr ')'                                  # parenExpr
    | call                                          # callExpr
    | var                                           # varExpr
    | INT_LITERAL                                   # intExpr
    | FLOAT_LITERAL                                 # floatExpr
    | (TRUE | FALSE)                                # boolExpr
    | <assoc=right> expr op='^' expr                # powerExpr
    | op=('-' | '!') expr                           # unaryExpr
    | expr op=('*' | '/' | '%') expr                # binaryExpr
    | expr op=('+' | '-') expr                      # binaryExpr
    | expr op=('<<' | '>>') expr                    # binaryExpr
    | expr op=('<' | '<=' | '>' | '>=') expr        # binaryExpr
    | expr op=('==' | '!=') expr                    # binaryExpr
    | expr op='&' expr                              # binaryExpr
    | expr op='|' expr                              # binaryExpr
    | expr op='&&' expr                             # binaryExpr
    | expr op='||' expr                             # binaryExpr
    ;

PACKAGE : 'package' ;
MODULE  : 'module' ;
EXPORT  : 'export' ;
IMPORT  : 'import' ;
CONST   : 'const' ;
TYPE    : 'type' ;
AS      : 'as' ;
VOID    : 'void' ;
INT     : 'int' ;
FLOAT   : 'float' ;
DOUBLE  : 'double' ;
BYTE    : 'byte' ;
BOOL    : 'bool' ;
RETURN  : 'return' ;
IF      : 'if' ;
ELSE    : 'else' ;
FOR     : 'for' ;
FOREACH : 'foreach' ;
IN      : 'in' ;
BARRIER : 'barrier' ;
TRUE    : 'true' ;
FALSE   : 'false' ;

ID            : [a-zA-Z_] [a-zA-Z_0-9]* ;
FLOAT_LITERAL : ([0-9]+ '.' [0-9]* | '.' [0-9]+) EXPONENT? [fF]?
              | [0-9]+ EXPONENT [fF]?
              ;
INT_LITERAL   : [0-9]+ ;
fragment EXPONENT : [eE] [+-]? [0-9]+ ;

LINE_COMMENT  : '//' ~[\r\n]* -> skip ;
BLOCK_COMMENT : '/*' .*? '*/' -> skip ;
WS            : [ \t\r\n\f]+ -> skip ;

UNEXPECTED_CHAR : . ;
