{#- La página común del formgrader, en español. Los bloques y los id (main-table…) son los de la
    plantilla base.tpl de nbgrader, porque sus guiones los buscan; los guiones se sirven traducidos
    (course/formgrader/__init__.py) y curso.js pone las notas que cuentan. Cada página dice en
    `seccion` dónde está (tareas, corregir o estudiantes), para marcarlo en el menú. -#}
<!doctype html>
<html lang="es">
<head>
  <meta charset="utf-8">
  <title>nbgrader: {% block titulo_de_la_pestana %}corregir y poner notas{% endblock %}</title>

  <script src="{{ base_url }}/formgrader/static/node_modules/jquery/dist/jquery.min.js"></script>
  <script src="{{ base_url }}/formgrader/static/node_modules/underscore/underscore-min.js"></script>
  <script src="{{ base_url }}/formgrader/static/node_modules/backbone/backbone-min.js"></script>
  <script src="{{ base_url }}/formgrader/static/node_modules/bootstrap/dist/js/bootstrap.min.js"></script>
  <script src="{{ base_url }}/formgrader/static/node_modules/datatables.net/js/jquery.dataTables.js"></script>
  <script src="{{ base_url }}/formgrader/static/node_modules/datatables.net-bs/js/dataTables.bootstrap.js"></script>
  <script src="{{ base_url }}{{ GUIONES }}/backbone_xsrf.js"></script>
  <script src="{{ base_url }}{{ GUIONES }}/utils.js"></script>

  <link rel="stylesheet" href="{{ base_url }}/formgrader/static/node_modules/bootstrap/dist/css/bootstrap.min.css" />
  <link rel="stylesheet" href="{{ base_url }}/formgrader/static/node_modules/datatables.net-bs/css/dataTables.bootstrap.css">
  <link rel="stylesheet" href="{{ base_url }}/formgrader/static/css/nbgrader.css">
  <link rel="stylesheet" href="{{ base_url }}{{ GUIONES }}/curso.css">

  <script>
  var base_url = "{{ base_url }}";
  </script>

  {%- block head -%}
  {%- endblock -%}
  <script src="{{ base_url }}{{ GUIONES }}/curso.js"></script>
</head>

<body>
  <div class="container-fluid">
    <div class="row">
      <div class="col-md-2">
        <div class="page-header">
          <h1>nbgrader</h1>
        </div>
      </div>
      <div class="col-md-10">
        <div class="page-header">
          <h1>
          {%- block title -%}
          {%- endblock -%}
          </h1>
        </div>
      </div>
    </div>
    <div class="row">
      <div class="col-md-2">
        <ul class="nav nav-pills nav-stacked">
          <li role="presentation"{% if seccion == "tareas" %} class="active"{% endif %}><a href="{{ base_url }}/formgrader/manage_assignments">Tareas</a></li>
          <li role="presentation"{% if seccion == "corregir" %} class="active"{% endif %}><a href="{{ base_url }}/formgrader/gradebook">Corregir a mano</a></li>
          <li role="presentation"{% if seccion == "estudiantes" %} class="active"{% endif %}><a href="{{ base_url }}/formgrader/manage_students">Estudiantes</a></li>
        </ul>
      </div>
      <div class="col-md-10">
        {%- block body -%}
        {%- block breadcrumbs -%}
        {%- endblock -%}
        {%- block messages -%}
        {%- endblock -%}
        <table class="table table-hover">
          <thead>
            {%- block table_header -%}
            {%- endblock -%}
          </thead>
          <tbody id="main-table">
            {%- block table_body -%}
            {%- endblock -%}
          </tbody>
          <tfoot>
            {%- block table_footer -%}
            {%- endblock -%}
          </tfoot>
        </table>
        {%- endblock -%}
      </div>
    </div>
  </div>
  {%- block script -%}
  {%- endblock -%}
</body>
</html>
