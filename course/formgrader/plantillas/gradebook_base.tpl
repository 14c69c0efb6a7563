{%- extends 'base.tpl' -%}
{%- set seccion = "corregir" -%}

{%- block title -%}
Corregir a mano
{%- endblock -%}
