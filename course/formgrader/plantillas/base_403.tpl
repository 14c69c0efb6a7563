{%- extends 'base.tpl' -%}

{%- block title -%}
Sin permiso
{%- endblock -%}

{%- block body -%}
<div class="panel-body">
No tienes permiso para entrar en el formgrader: es solo para el profesor del curso.
<span id="error-{{ error_code }}"></span>
</div>
{%- endblock -%}
