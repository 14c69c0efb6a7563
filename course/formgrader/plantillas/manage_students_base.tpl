{%- extends 'base.tpl' -%}
{%- set seccion = "estudiantes" -%}

{%- block title -%}
Estudiantes
{%- endblock -%}
